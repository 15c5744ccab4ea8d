/*-------------------------------------------------------------------------
 *
 * backends.h
 *		The load's backends, found by application_name (backends.c).
 *
 * IDENTIFICATION
 *	  src/common/backends.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_BACKENDS_H
#define WALPRESSURE_BACKENDS_H

#include "postgres_ext.h"

/* the application_name of the load's connections, by engine */
#define WP_LOAD_APPNAME_PGBENCH	"walpressure pgbench"
#define WP_LOAD_APPNAME_CLIENT	"walpressure client"

extern int	wp_backends_named(const char *name);
extern int	wp_load_backends(Oid roleid, bool syncrep_only, bool terminate);

#endif							/* WALPRESSURE_BACKENDS_H */

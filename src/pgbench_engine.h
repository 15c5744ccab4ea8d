/*-------------------------------------------------------------------------
 *
 * pgbench_engine.h
 *		The pgbench load engine: this server's own pgbench binary, run by
 *		the coordinator over the server's Unix socket as the caller
 *		(pgbench_engine.c).
 *
 * IDENTIFICATION
 *	  src/pgbench_engine.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_PGBENCH_ENGINE_H
#define WALPRESSURE_PGBENCH_ENGINE_H

#include "clients.h"

extern const WpLoadEngine wp_pgbench_engine;

extern void wp_pgbench_preflight(const WpSweepRequest *req);
extern void wp_pgbench_remove_stale_dirs(void);

#endif							/* WALPRESSURE_PGBENCH_ENGINE_H */

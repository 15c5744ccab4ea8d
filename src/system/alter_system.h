/*-------------------------------------------------------------------------
 *
 * alter_system.h
 *		Server-wide settings in a sweep: ALTER SYSTEM, a reload, checked in
 *		effect, always put back (alter_system.c, coordinator/settings_hold.c).
 *
 * IDENTIFICATION
 *	  src/system/alter_system.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_SERVER_SETTINGS_H
#define WALPRESSURE_SERVER_SETTINGS_H

#include "fmgr.h"
#include "nodes/pg_list.h"

PGDLLEXPORT void wp_settings_probe_main(Datum main_arg);
extern void wp_alter_system_apply(List *names, List *values);
extern void wp_reload(int elevel);
extern void wp_reload_and_check(List *names);

/* Shared memory (walpressure.c's hooks). */
extern Size wp_settings_probe_shmem_size(void);
extern void wp_settings_probe_shmem_init(void *block, bool found);

#endif							/* WALPRESSURE_SERVER_SETTINGS_H */

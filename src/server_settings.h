/*-------------------------------------------------------------------------
 *
 * server_settings.h
 *		Server-wide settings in a sweep: ALTER SYSTEM, a reload, checked in
 *		effect, always put back (server_settings.c).
 *
 * IDENTIFICATION
 *	  src/server_settings.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_SERVER_SETTINGS_H
#define WALPRESSURE_SERVER_SETTINGS_H

#include "fmgr.h"
#include "nodes/pg_list.h"

PGDLLEXPORT void wp_settings_probe_main(Datum main_arg);
extern void wp_server_settings_begin(int64 sweep_id, List *managed);
extern void wp_server_settings_apply(List *names, List *values);
extern const char *wp_server_settings_end(int64 sweep_id, bool check, const char *originals);

/* Shared memory (shmem.c). */
extern Size wp_settings_probe_shmem_size(void);
extern void wp_settings_probe_shmem_init(void *block, bool found);

#endif							/* WALPRESSURE_SERVER_SETTINGS_H */

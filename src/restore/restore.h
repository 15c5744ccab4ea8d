/*-------------------------------------------------------------------------
 *
 * restore.h
 *		What an interrupted sweep left, put back from its crash record:
 *		by the postmaster at start, and by the restore worker (restore.c).
 *
 * IDENTIFICATION
 *	  src/restore/restore.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_RESTORE_H
#define WALPRESSURE_RESTORE_H

#include "fmgr.h"

extern void wp_restore_at_start(void);
extern void wp_restore_register(void);
extern void wp_restore_wake(void);
extern bool wp_restore_pending(int64 *sweep_id);
extern void wp_restore_check_launch(void);
PGDLLEXPORT void wp_restore_main(Datum main_arg);
PGDLLEXPORT void wp_restore_row_main(Datum main_arg);

/* Shared memory (walpressure.c's hooks). */
extern Size wp_restore_shmem_size(void);
extern void wp_restore_shmem_init(void *block, bool found);

#endif							/* WALPRESSURE_RESTORE_H */

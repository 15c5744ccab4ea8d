/*-------------------------------------------------------------------------
 *
 * restore.h
 *		The sweep state file, and the recovery worker that closes a sweep
 *		a crash or a server stop interrupted (recovery.c).
 *
 * IDENTIFICATION
 *	  src/restore/restore.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_RECOVERY_H
#define WALPRESSURE_RECOVERY_H

#include "fmgr.h"

#include "system/cgroup.h"

/* The IOPS limits a sweep's cap replaced, to put back. */
typedef struct WpCapRecord
{
	WpDevice	dev;
	int64		prev_write_iops;
	int64		prev_read_iops;
	char		cgroup[256];	/* the cgroup that holds the cap (state file) */
} WpCapRecord;

extern void wp_state_file_write(int64 sweep_id, Oid dboid, const WpCapRecord *cap);
extern void wp_state_file_remove(void);
extern bool wp_recovery_pending(int64 *sweep_id);
extern void wp_recovery_start(void);
PGDLLEXPORT void wp_recovery_main(Datum main_arg);

#endif							/* WALPRESSURE_RECOVERY_H */

/*-------------------------------------------------------------------------
 *
 * disk_probe.h
 *		What one WAL-sized flush costs on pg_wal's disk, measured as
 *		pg_test_fsync does (disk_probe.c).
 *
 * IDENTIFICATION
 *	  src/system/disk_probe.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_DISK_PROBE_H
#define WALPRESSURE_DISK_PROBE_H

#include "common/histogram.h"

/* One run of the probe. */
typedef struct WpDiskProbe
{
	uint64		ops;			/* writes, each with its fdatasync */
	double		seconds;
	double		total_us;
	WpHistSnap	hist;			/* each one's latency */
} WpDiskProbe;

extern void wp_fsync_probe_remove_stale(void);
extern void wp_disk_probe_run(int64 duration_us, int block_size, WpDiskProbe *out);

#endif							/* WALPRESSURE_DISK_PROBE_H */

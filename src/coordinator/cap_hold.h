/*-------------------------------------------------------------------------
 *
 * cap_hold.h
 *		A sweep's hold on the disk: the write-IOPS cap of each step on the
 *		paced disk or the throttle, the caps it replaced, and the pg_wal
 *		disk's IO counters (cap_hold.c).
 *
 * IDENTIFICATION
 *	  src/coordinator/cap_hold.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_CAP_H
#define WALPRESSURE_CAP_H

#include "restore/record.h"
#include "sweep/request.h"
#include "system/paced_disk.h"

typedef struct WpCap
{
	bool		active;			/* the sweep holds a cap (either disk) */
	bool		throttle;		/* ... the cgroup's throttle */
	bool		paced;			/* ... the paced disk */
	WpCgroupMode mode;
	bool		have_dev;		/* pg_wal has a block device */
	WpCapRecord rec;			/* the device and the limits to put back */
	WpPacedCap	prev_paced;		/* the paced cap to put back */
	double		floor_us;		/* the sweep's paced flush floor */
	WpDiskModel model;			/* the disk of the step in force */
} WpCap;

extern void wp_cap_find_device(WpCap *cap);
extern void wp_cap_begin(WpCap *cap, WpCrashRecord *record, const WpSweepRequest *req);
extern void wp_cap_set(WpCap *cap, WpDiskModel model, int64 write_iops);
extern void wp_cap_release(WpCap *cap);
extern bool wp_cap_end(WpCap *cap, int64 sweep_id);
extern bool wp_cap_device_ios(const WpCap *cap, uint64 *reads, uint64 *writes);

#endif							/* WALPRESSURE_CAP_H */

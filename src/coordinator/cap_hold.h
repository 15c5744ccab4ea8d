/*-------------------------------------------------------------------------
 *
 * cap_hold.h
 *		A sweep's hold on the disk: the write-IOPS cap of each step, the
 *		limits it replaced, and the pg_wal disk's IO counters (cap.c).
 *
 * IDENTIFICATION
 *	  src/coordinator/cap_hold.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_CAP_H
#define WALPRESSURE_CAP_H

#include "restore/record.h"

typedef struct WpCap
{
	bool		active;			/* the sweep holds the cap */
	WpCgroupMode mode;
	bool		have_dev;		/* pg_wal has a block device */
	WpCapRecord rec;			/* the device and the limits to put back */
} WpCap;

extern void wp_cap_find_device(WpCap *cap);
extern void wp_cap_begin(WpCap *cap, WpCrashRecord *record);
extern void wp_cap_set(WpCap *cap, int64 write_iops);
extern bool wp_cap_end(WpCap *cap, int64 sweep_id);
extern bool wp_cap_device_ios(const WpCap *cap, uint64 *reads, uint64 *writes);

#endif							/* WALPRESSURE_CAP_H */

/*-------------------------------------------------------------------------
 *
 * cap_hold.c
 *		A sweep's hold on the disk.  Before the first step the limits in
 *		place are recorded (in the state file, for a crash) and the server
 *		enrolled in the cgroup; each step sets its write cap; at the end the
 *		recorded limits are put back.  Also the disk's IO counters a step
 *		reads: the cgroup's (the server's IOs) under a cap, /proc/diskstats
 *		(the whole disk's) otherwise.
 *
 * IDENTIFICATION
 *	  src/coordinator/cap_hold.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"

#include "coordinator/cap_hold.h"

/* Find pg_wal's disk, for the IO counters; no error when there is none. */
void
wp_cap_find_device(WpCap *cap)
{
	cap->have_dev = wp_wal_device_try(&cap->rec.dev);
}

/*
 * Take the cap for the sweep: record the limits to restore first, then
 * enrol the server in the cgroup.
 */
void
wp_cap_begin(WpCap *cap, WpCrashRecord *record)
{
	cap->mode = wp_cgroup_check();
	cap->rec.dev = wp_wal_device(NULL);
	cap->have_dev = true;
	wp_cgroup_get_limits(cap->mode, cap->rec.dev, &cap->rec.prev_write_iops,
						 &cap->rec.prev_read_iops);
	strlcpy(cap->rec.cgroup, wp_cgroup_name, sizeof(cap->rec.cgroup));
	cap->active = true;
	record->cap = cap->rec;
	record->has_cap = true;
	wp_record_write(record);
	(void) wp_cgroup_enroll(cap->mode);
}

/* The write cap of a step; the read limit stays as it was. */
void
wp_cap_set(WpCap *cap, int64 write_iops)
{
	Assert(cap->active);
	wp_cgroup_set_limits(cap->mode, cap->rec.dev, write_iops, cap->rec.prev_read_iops);
}

/*
 * Put the limits back as they were.  False (and a WARNING) if that failed;
 * the crash record then keeps them, so the restore worker tries again.
 */
bool
wp_cap_end(WpCap *cap, int64 sweep_id)
{
	bool		ok = true;
	MemoryContext cxt = CurrentMemoryContext;

	if (!cap->active)
		return true;
	PG_TRY();
	{
		wp_cgroup_set_limits(cap->mode, cap->rec.dev, cap->rec.prev_write_iops,
							 cap->rec.prev_read_iops);
		cap->active = false;
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(cxt);
		EmitErrorReport();
		FlushErrorState();
		ereport(WARNING,
				(errmsg("walpressure could not remove the IOPS cap of sweep " INT64_FORMAT " from %u:%u",
						sweep_id, cap->rec.dev.major, cap->rec.dev.minor),
				 errhint("The restore worker tries again; clear_iops_cap() removes it now.")));
		ok = false;
	}
	PG_END_TRY();
	return ok;
}

/*
 * Reads and writes issued to the pg_wal disk so far.  False when there is
 * no such disk.
 */
bool
wp_cap_device_ios(const WpCap *cap, uint64 *reads, uint64 *writes)
{
	if (cap->active)
		return wp_cgroup_ios(cap->mode, cap->rec.dev, reads, writes);
	return cap->have_dev && wp_diskstats_ios(cap->rec.dev, reads, writes);
}

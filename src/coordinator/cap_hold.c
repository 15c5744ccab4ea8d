/*-------------------------------------------------------------------------
 *
 * cap_hold.c
 *		A sweep's hold on the disk.  Before the first step the caps in
 *		place are kept (the throttle's in the state file, for a crash) and,
 *		for the throttle, the server enrolled in the cgroup; each step sets
 *		its write cap on its disk, the paced disk or the throttle, and the
 *		other's off; at the end the caps are put back.  Also the disk's IO
 *		counters a step reads: the paced disk's own count, the cgroup's (the
 *		server's IOs) under the throttle, /proc/diskstats (the whole disk's)
 *		otherwise.
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
 * Take the cap for the sweep, on the disks its steps use: the throttle's
 * limits in place recorded first (in the state file, for a crash) and the
 * server enrolled in the cgroup; the paced disk's cap in place kept to put
 * back (shared memory: a crash-restart leaves the paced disk off anyway).
 */
void
wp_cap_begin(WpCap *cap, WpCrashRecord *record, const WpSweepRequest *req)
{
	cap->floor_us = req->flush_floor_us;
	if (req->uses_paced)
	{
		wp_paced_get(&cap->prev_paced);
		cap->paced = true;
	}
	if (req->uses_throttle)
	{
		cap->mode = wp_cgroup_check();
		cap->rec.dev = wp_wal_device(NULL);
		cap->have_dev = true;
		wp_cgroup_get_limits(cap->mode, cap->rec.dev, &cap->rec.prev_write_iops,
							 &cap->rec.prev_read_iops);
		strlcpy(cap->rec.cgroup, wp_cgroup_name, sizeof(cap->rec.cgroup));
		cap->throttle = true;
		record->cap = cap->rec;
		record->has_cap = true;
		wp_record_write(record);
		(void) wp_cgroup_enroll(cap->mode);
	}
	cap->active = cap->paced || cap->throttle;
}

/*
 * The write cap of a step, on its disk; the other disk's cap is off for
 * it (the throttle's read limit stays as it was).
 */
void
wp_cap_set(WpCap *cap, WpDiskModel model, int64 write_iops)
{
	Assert(cap->active);
	cap->model = model;
	if (cap->throttle)
		wp_cgroup_set_limits(cap->mode, cap->rec.dev,
							 model == WP_DISK_THROTTLE ? write_iops : 0, cap->rec.prev_read_iops);
	if (cap->paced)
		wp_paced_set(&(WpPacedCap) {
			model == WP_DISK_PACED ? write_iops : 0, cap->floor_us, 0
		});
}

/* Between steps (a checkpoint): the caps as they were before the sweep. */
void
wp_cap_release(WpCap *cap)
{
	Assert(cap->active);
	if (cap->throttle)
		wp_cgroup_set_limits(cap->mode, cap->rec.dev, cap->rec.prev_write_iops,
							 cap->rec.prev_read_iops);
	if (cap->paced)
		wp_paced_set(&cap->prev_paced);
}

/*
 * Put the caps back as they were.  False (and a WARNING) if the throttle's
 * could not be; the crash record then keeps them, so the restore worker
 * tries again.
 */
bool
wp_cap_end(WpCap *cap, int64 sweep_id)
{
	bool		ok = true;
	MemoryContext cxt = CurrentMemoryContext;

	if (!cap->active)
		return true;
	if (cap->paced)
	{
		wp_paced_set(&cap->prev_paced);
		cap->paced = false;
	}
	if (cap->throttle)
	{
		PG_TRY();
		{
			wp_cgroup_set_limits(cap->mode, cap->rec.dev, cap->rec.prev_write_iops,
								 cap->rec.prev_read_iops);
			cap->throttle = false;
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
	}
	cap->active = cap->throttle;
	return ok;
}

/*
 * Reads and writes issued to the pg_wal disk so far: on the paced disk the
 * IOs it charged (its own count: what the model's cap applies to; no
 * reads), under the throttle the cgroup's counters (the server's IOs),
 * else /proc/diskstats (the whole disk's).  False when there is none.
 */
bool
wp_cap_device_ios(const WpCap *cap, uint64 *reads, uint64 *writes)
{
	if (cap->active && cap->paced && cap->model == WP_DISK_PACED)
	{
		*reads = 0;
		return wp_paced_ios(writes);
	}
	if (cap->active && cap->throttle)
		return wp_cgroup_ios(cap->mode, cap->rec.dev, reads, writes);
	return cap->have_dev && wp_diskstats_ios(cap->rec.dev, reads, writes);
}

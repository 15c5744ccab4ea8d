/*-------------------------------------------------------------------------
 *
 * shmem.c
 *		The live side's shared memory: the commit probe's per-process
 *		slots, the sampler's ring and the reset baseline, and reading them.
 *
 * Note about locking:
 *
 * The probe slots take no lock at all.  Slot i belongs to the process that
 * owns PGPROC number i; only that process writes it, with plain atomic
 * reads and writes (no locked instruction, so committing backends never
 * contend on a cache line).  Every counter and histogram bucket only grows,
 * from server start until the next crash-restart reinitialises shared
 * memory.  Readers sum all slots without a lock; a sum taken while commits
 * happen may count a commit in one counter and not yet in another, which
 * is below any figure's resolution.  reset() never writes a slot: it
 * records the current sums as a baseline, and figures are differences
 * against it.
 *
 * Everything in WpShared and the sample ring is guarded by wp_shared->lock:
 * the sampler takes it exclusively to append a sample, reset() to replace
 * the baseline and empty the rings, and readers take it shared to copy.
 * The commit path never touches it.
 *
 * The sweep side's blocks are allocated by walpressure.c's hooks, and each
 * says its own rules: the job slot (job/slot.c, with its own lock), the
 * backend engine's client slots (engine/backend_engine.c: a client slot
 * follows the probe slots' rule, only its client writes it) and the
 * settings probe's exchange (system/alter_system.c).
 *
 * IDENTIFICATION
 *	  src/live/shmem.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/twophase.h"
#include "access/xlog.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/ipc.h"
#include "storage/proc.h"
#include "storage/shmem.h"
#include "utils/timestamp.h"

#include "compat.h"
#include "live/shmem.h"

WpShared   *wp_shared = NULL;
WpProbeSlot *wp_slots = NULL;
WpSample   *wp_ring = NULL;

/* walpressure.sample_history (walpressure.c defines it): the ring's length */
int			wp_sample_history = 3600;

/*
 * One probe slot for every PGPROC the server can have.
 */
static int
wp_slot_count(void)
{
	return MaxBackends + NUM_AUXILIARY_PROCS + max_prepared_xacts;
}

static Size
wp_slots_size(void)
{
	return mul_size(wp_slot_count(), sizeof(WpProbeSlot));
}

static Size
wp_ring_size(void)
{
	return mul_size(wp_sample_history, sizeof(WpSample));
}

/*
 * The live side's shared memory: the probe slots, the sample ring and
 * WpShared, for walpressure.c's shmem_request_hook.
 */
Size
wp_live_shmem_size(void)
{
	return add_size(add_size(MAXALIGN(sizeof(WpShared)), MAXALIGN(wp_slots_size())),
					MAXALIGN(wp_ring_size()));
}

/*
 * Create or attach to the live side's memory, from walpressure.c's
 * shmem_startup_hook (under AddinShmemInitLock).  Initialised once per
 * postmaster life (and again after a crash-restart), all zeroes but the
 * baseline's time; `lock` guards WpShared and the ring.
 */
void
wp_live_shmem_init(LWLock *lock)
{
	bool		found_shared;
	bool		found_slots;
	bool		found_ring;

	wp_shared = ShmemInitStruct("walpressure", sizeof(WpShared), &found_shared);
	wp_slots = ShmemInitStruct("walpressure probe", wp_slots_size(), &found_slots);
	wp_ring = ShmemInitStruct("walpressure samples", wp_ring_size(), &found_ring);

	if (!found_shared)
	{
		memset(wp_shared, 0, sizeof(WpShared));
		wp_shared->lock = lock;
		wp_shared->nslots = wp_slot_count();
		wp_shared->ring_size = wp_sample_history;
		wp_shared->base.ts = GetCurrentTimestamp();
		pg_atomic_init_u64(&wp_shared->syncrep_wait_us, 0);
	}
	if (!found_slots)
	{
		memset(wp_slots, 0, wp_slots_size());
		for (int i = 0; i < wp_slot_count(); i++)
		{
			WpProbeSlot *s = &wp_slots[i];

			pg_atomic_init_u64(&s->commits, 0);
			pg_atomic_init_u64(&s->probed, 0);
			pg_atomic_init_u64(&s->leaders, 0);
			pg_atomic_init_u64(&s->leader_fsyncs, 0);
			pg_atomic_init_u64(&s->timed_fsyncs, 0);
			pg_atomic_init_u64(&s->fsync_time_us, 0);
			pg_atomic_init_u64(&s->commit_time_us, 0);
			for (int b = 0; b < WP_HIST_BUCKETS; b++)
			{
				pg_atomic_init_u64(&s->commit_hist.bucket[b], 0);
				pg_atomic_init_u64(&s->fsync_hist.bucket[b], 0);
			}
		}
	}
	if (!found_ring)
		memset(wp_ring, 0, wp_ring_size());
}

/*
 * The error every SQL entry point raises when the library was not loaded
 * at server start, so its shared memory does not exist.
 */
void
wp_require_preload(void)
{
	if (wp_shared == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("walpressure must be loaded via shared_preload_libraries"),
				 errhint("Add walpressure to shared_preload_libraries in postgresql.conf and restart the server.")));
}

/*
 * The probe slot of a PGPROC number, or NULL when out of range.
 */
WpProbeSlot *
wp_probe_slot(int procno)
{
	if (wp_slots == NULL || procno < 0 || procno >= wp_shared->nslots)
		return NULL;
	return &wp_slots[procno];
}

/*
 * Sum the probe's counters and histograms over all processes into c and
 * hist (which need not be zeroed; the other fields of c are left alone).
 */
void
wp_probe_sum(WpCounters *c, WpHistPair *hist)
{
	c->commits = c->probed = c->leaders = c->leader_fsyncs = 0;
	c->timed_fsyncs = c->fsync_time_us = c->commit_time_us = 0;
	c->syncrep_wait_us = pg_atomic_read_u64(&wp_shared->syncrep_wait_us);
	if (hist)
		memset(hist, 0, sizeof(WpHistPair));

	for (int i = 0; i < wp_shared->nslots; i++)
	{
		WpProbeSlot *s = &wp_slots[i];

		c->commits += pg_atomic_read_u64(&s->commits);
		c->probed += pg_atomic_read_u64(&s->probed);
		c->leaders += pg_atomic_read_u64(&s->leaders);
		c->leader_fsyncs += pg_atomic_read_u64(&s->leader_fsyncs);
		c->timed_fsyncs += pg_atomic_read_u64(&s->timed_fsyncs);
		c->fsync_time_us += pg_atomic_read_u64(&s->fsync_time_us);
		c->commit_time_us += pg_atomic_read_u64(&s->commit_time_us);
		if (hist)
		{
			wp_hist_accumulate(&hist->commit, &s->commit_hist);
			wp_hist_accumulate(&hist->fsync, &s->fsync_hist);
		}
	}
}

/*
 * Every cumulative counter, now: the probe's sums, pg_stat_wal, the
 * checkpointer's counts and the WAL positions.  The statistics come
 * through the cumulative statistics system, so within a transaction they
 * follow stats_fetch_consistency like pg_stat_wal does.
 */
void
wp_read_counters(WpCounters *c, WpHistPair *hist)
{
	memset(c, 0, sizeof(WpCounters));
	c->ts = GetCurrentTimestamp();
	wp_probe_sum(c, hist);
	wp_read_wal_stats(&c->wal_records, &c->wal_fpi, &c->wal_bytes,
					  &c->wal_buffers_full, &c->wal_write, &c->wal_sync,
					  &c->wal_write_time_us, &c->wal_sync_time_us);
	wp_read_checkpoints(&c->ckpt_timed, &c->ckpt_requested, &c->ckpt_write_ms, &c->ckpt_sync_ms);
	wp_read_stats_resets(&c->wal_reset_at, &c->ckpt_reset_at);
	wp_read_buffer_writes(&c->buf_ckpt, &c->buf_clean, &c->buf_backend, &c->buf_backend_fsync,
						  &c->buf_reset_at);
	if (!RecoveryInProgress())
	{
		c->insert_lsn = GetXLogInsertRecPtr();
		c->flush_lsn = GetFlushRecPtr(NULL);
	}
}

/*
 * reset(): make now the baseline of every figure and forget the samples.
 */
void
wp_counters_reset(void)
{
	WpCounters	now;
	WpHistPair *hist = palloc(sizeof(WpHistPair));

	pgstat_clear_snapshot();
	wp_read_counters(&now, hist);

	LWLockAcquire(wp_shared->lock, LW_EXCLUSIVE);
	wp_shared->base = now;
	wp_shared->base_hist = *hist;
	wp_shared->samples_taken = 0;
	wp_shared->minutes_taken = 0;
	LWLockRelease(wp_shared->lock);

	pfree(hist);
}

/*
 * The start of "the last minute" as of `cutoff` (a minute before now): the
 * newest kept snapshot at least that old, or the reset baseline when none
 * is.  `base` gets the baseline.  When the ring has dropped the entries
 * older than the cutoff (the sampler was down), the oldest one kept is
 * closer to a minute than the base.
 */
void
wp_minute_start(TimestampTz cutoff, WpMinuteEntry *base, WpMinuteEntry *minute)
{
	LWLockAcquire(wp_shared->lock, LW_SHARED);
	base->c = wp_shared->base;
	base->hist = wp_shared->base_hist;
	*minute = *base;
	{
		uint64		n = wp_shared->minutes_taken;
		uint64		first = n > WP_MINUTE_RING ? n - WP_MINUTE_RING : 0;

		/* entries are in time order, all newer than the base */
		if (first > 0)
			*minute = wp_shared->minute[first % WP_MINUTE_RING];
		for (uint64 i = first; i < n; i++)
		{
			WpMinuteEntry *m = &wp_shared->minute[i % WP_MINUTE_RING];

			if (m->c.ts > cutoff)
				break;
			*minute = *m;
		}
	}
	LWLockRelease(wp_shared->lock);
}

/*-------------------------------------------------------------------------
 *
 * sampler.c
 *		The sampler: a static background worker that, every
 *		walpressure.sample_interval, appends one sample of every counter to
 *		the ring in shared memory.
 *
 * A sample holds the probe's sums, pg_stat_wal, the checkpointer's counts,
 * the WAL insert and flush positions, commit and fsync percentiles over the
 * interval it closes, and how many processes wait on WAL-related events at
 * that instant.  About once a second it also keeps the cumulative
 * histograms, so the live view can give percentiles over the last minute.
 * While synchronous standbys are named and walsenders run, it also wakes
 * every millisecond to time the commits waiting for them (wp_syncrep_tick,
 * counting them with system/walsenders.c).  It reads no database; the
 * postmaster restarts it if it dies or is terminated.  It repairs nothing:
 * what a sweep left after a crash is the restore worker's
 * (restore/restore.c).
 *
 * IDENTIFICATION
 *	  src/live/sampler.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "postmaster/interrupt.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/lwlock.h"
#include "storage/proc.h"
#include "tcop/tcopprot.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"
#include "utils/wait_event.h"

#include "system/cgroup.h"
#include "system/paced_disk.h"
#include "compat.h"
#include "common/worker.h"
#include "system/walsenders.h"
#include "system/disk_probe.h"
#include "live/shmem.h"
#include "live/sampler.h"

/* The fast tick's period while commits can wait for standbys (system/walsenders.c). */
#define WP_SYNCREP_TICK_MS	1

/* walpressure.sample_interval (walpressure.c defines it), ms */
int			wp_sample_interval_ms = 1000;

/* A minute-ring entry is kept when this much time passed since the last. */
#define WP_MINUTE_STEP_MS	1000

/*
 * Register the sampler; called from _PG_init during preload.
 */
/*
 * The fast tick: the processes in IPC:SyncRep times the time
 * since the last tick.  Sampled every millisecond, the sum estimates the
 * time commits spent waiting for standbys; test/t/014_standby.pl checks it
 * against a known standby delay.  A gap over 100 ms (the sampler was busy
 * or there were no walsenders) is not counted: it would weigh one instant
 * as a long time.
 */
static void
wp_syncrep_tick(void)
{
	static TimestampTz last = 0;
	TimestampTz now = GetCurrentTimestamp();
	int			n = wp_syncrep_waiting();

	if (last != 0 && n > 0 && now - last > 0 && now - last <= 100 * 1000)
		pg_atomic_fetch_add_u64(&wp_shared->syncrep_wait_us, (uint64) n * (now - last));
	last = now;
}

void
wp_sampler_register(void)
{
	wp_static_worker("wp_sampler_main", "walpressure sampler", BgWorkerStart_ConsistentState, 1);
}

/*
 * Count the processes waiting, right now, on the WAL write lock, a WAL
 * fsync, a WAL write, or anything else that is not idling.  PGPROC's
 * wait_event_info is read without a lock, as pg_stat_activity does.
 */
static void
wp_count_waits(WpSample *s)
{
	uint32		walwrite_lock = PG_WAIT_LWLOCK | WALWriteLock->tranche;

	for (uint32 i = 0; i < ProcGlobal->allProcCount; i++)
	{
		PGPROC	   *proc = &ProcGlobal->allProcs[i];
		uint32		event = *((volatile uint32 *) &proc->wait_event_info);
		uint32		class = event & 0xFF000000;

		/* unused, exiting, or not waiting */
		if (proc == MyProc || proc->pid == 0 ||
			proc->procLatch.owner_pid == 0 || event == 0)
			continue;

		if (event == walwrite_lock)
			s->wait_walwrite_lock++;
		else if (event == WAIT_EVENT_WAL_SYNC)
			s->wait_wal_sync++;
		else if (event == WAIT_EVENT_WAL_WRITE)
			s->wait_wal_write++;
		else if (class == PG_WAIT_LWLOCK || class == PG_WAIT_LOCK ||
				 class == WP_WAIT_BUFFER_PIN || class == PG_WAIT_IO ||
				 class == PG_WAIT_IPC)
			s->wait_other++;
	}
}

static bool wp_have_dev = false;
static WpDevice wp_dev;

/* Whether the server sits in the cap's cgroup, checked every 10 s at most. */
#define WP_CGROUP_RECHECK_MS	10000
static TimestampTz wp_cgroup_checked_at = 0;
static bool wp_cgroup_counts = false;
static WpCgroupMode wp_cgroup_mode_cached = WP_CG_NONE;

/*
 * The pg_wal disk's IOs so far: under a paced cap its own count of the
 * write IOs it charged; the cgroup's counters when the server is in the
 * cap's cgroup (they count the server's IOs), /proc/diskstats otherwise.
 * Whether it is in the cgroup costs a few files to read: that is cached,
 * and read again every 10 s and after a reload.
 */
static void
wp_sample_ios(WpSample *s)
{
	WpPacedCap paced;

	/* under a paced cap: the IOs it charges (what its cap applies to) */
	wp_paced_get(&paced);
	if (paced.iops > 0 && wp_paced_ios(&s->dev_writes))
	{
		uint64		writes;

		s->dev_reads = 0;
		if (wp_have_dev)
			(void) wp_diskstats_ios(wp_dev, &s->dev_reads, &writes);
		s->ios_source = 3;
		return;
	}
	if (!wp_have_dev)
		return;
	if (TimestampDifferenceExceeds(wp_cgroup_checked_at, GetCurrentTimestamp(),
								   WP_CGROUP_RECHECK_MS))
	{
		char	   *detail;
		char	   *hint;

		wp_cgroup_counts = wp_cgroup_problem(&wp_cgroup_mode_cached, &detail, &hint) == NULL &&
			wp_cgroup_self_enrolled(wp_cgroup_mode_cached);
		wp_cgroup_checked_at = GetCurrentTimestamp();
	}
	if (wp_cgroup_counts &&
		wp_cgroup_ios(wp_cgroup_mode_cached, wp_dev, &s->dev_reads, &s->dev_writes))
		s->ios_source = 2;
	else if (wp_diskstats_ios(wp_dev, &s->dev_reads, &s->dev_writes))
		s->ios_source = 1;
}

/*
 * Take one sample and append it to the ring.  prev holds the histograms of
 * the previous sample and is replaced by this one's.
 */
static void
wp_take_sample(WpHistPair *now_hist, WpHistPair *prev_hist, WpHistSnap *delta)
{
	WpSample	s;
	bool		keep_minute;

	memset(&s, 0, sizeof(s));
	pgstat_clear_snapshot();
	wp_read_counters(&s.c, now_hist);

	wp_hist_subtract(delta, &now_hist->commit, &prev_hist->commit);
	s.commit_p50_us = wp_hist_percentile(delta, 0.50);
	s.commit_p99_us = wp_hist_percentile(delta, 0.99);
	wp_hist_subtract(delta, &now_hist->fsync, &prev_hist->fsync);
	s.fsync_p50_us = wp_hist_percentile(delta, 0.50);
	s.fsync_p99_us = wp_hist_percentile(delta, 0.99);
	memcpy(prev_hist, now_hist, sizeof(WpHistPair));

	wp_count_waits(&s);
	wp_sample_ios(&s);

	LWLockAcquire(wp_shared->lock, LW_EXCLUSIVE);
	/* a reset() between our read and now: this sample predates the baseline */
	if (s.c.ts < wp_shared->base.ts)
	{
		LWLockRelease(wp_shared->lock);
		return;
	}
	wp_ring[wp_shared->samples_taken % wp_shared->ring_size] = s;
	wp_shared->samples_taken++;

	keep_minute = wp_shared->minutes_taken == 0 ||
		TimestampDifferenceExceeds(wp_shared->minute[(wp_shared->minutes_taken - 1) % WP_MINUTE_RING].c.ts,
								   s.c.ts, WP_MINUTE_STEP_MS - wp_sample_interval_ms / 2);
	if (keep_minute)
	{
		WpMinuteEntry *m = &wp_shared->minute[wp_shared->minutes_taken % WP_MINUTE_RING];

		m->c = s.c;
		m->hist = *now_hist;
		wp_shared->minutes_taken++;
	}
	LWLockRelease(wp_shared->lock);
}

/*
 * Entry point of the sampler.
 */
void
wp_sampler_main(Datum main_arg)
{
	WpHistPair *now_hist;
	WpHistPair *prev_hist;
	WpHistSnap *delta;
	TimestampTz next;
	MemoryContext loop_cxt;

	pqsignal(SIGHUP, SignalHandlerForConfigReload);
	pqsignal(SIGTERM, SignalHandlerForShutdownRequest);
	/* it runs no statement: pg_cancel_backend() has nothing to cancel */
	pqsignal(SIGINT, WP_SIG_IGN);
	BackgroundWorkerUnblockSignals();

	/*
	 * Connected to no database, like the logical replication launcher: it
	 * reads only shared state, and shows up in pg_stat_activity.
	 */
	BackgroundWorkerInitializeConnection(NULL, NULL, 0);
	pgstat_report_appname("walpressure sampler");

	/* a probe_fsync killed with the server leaves no 16 MB file behind */
	wp_fsync_probe_remove_stale();

	now_hist = MemoryContextAllocZero(TopMemoryContext, sizeof(WpHistPair));
	prev_hist = MemoryContextAllocZero(TopMemoryContext, sizeof(WpHistPair));
	delta = MemoryContextAllocZero(TopMemoryContext, sizeof(WpHistSnap));

	wp_have_dev = wp_wal_device_try(&wp_dev);

	/* what one sample allocates is freed before the next */
	loop_cxt = AllocSetContextCreate(TopMemoryContext, "walpressure sampler loop",
									 ALLOCSET_DEFAULT_SIZES);
	MemoryContextSwitchTo(loop_cxt);

	/* the first interval starts now, not at server start */
	wp_probe_sum(&(WpCounters) {0}, prev_hist);

	next = TimestampTzPlusMilliseconds(GetCurrentTimestamp(), wp_sample_interval_ms);
	while (!ShutdownRequestPending)
	{
		TimestampTz now = GetCurrentTimestamp();
		long		wait_ms = TimestampDifferenceMilliseconds(now, next);
		bool		fast = wp_syncrep_possible();

		MemoryContextReset(loop_cxt);

		/* with synchronous standbys: the processes waiting for them, every ms */
		if (fast)
			wp_syncrep_tick();

		if (wait_ms <= 0)
		{
			wp_take_sample(now_hist, prev_hist, delta);
			next = TimestampTzPlusMilliseconds(next, wp_sample_interval_ms);
			/* fell behind by more than an interval: start afresh from now */
			if (next <= now)
				next = TimestampTzPlusMilliseconds(now, wp_sample_interval_ms);
			continue;
		}

		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 fast ? Min(wait_ms, WP_SYNCREP_TICK_MS) : wait_ms, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();

		if (ConfigReloadPending)
		{
			int			old_interval = wp_sample_interval_ms;

			ConfigReloadPending = false;
			ProcessConfigFile(PGC_SIGHUP);
			wp_cgroup_checked_at = 0;	/* walpressure.cgroup may have changed */
			if (wp_sample_interval_ms != old_interval)
				next = TimestampTzPlusMilliseconds(GetCurrentTimestamp(),
												   wp_sample_interval_ms);
		}
	}

	/*
	 * Asked to stop: at shutdown the postmaster will not restart us; after a
	 * pg_terminate_backend() the non-zero status has it start us again.
	 */
	proc_exit(1);
}

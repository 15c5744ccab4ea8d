/*-------------------------------------------------------------------------
 *
 * shmem.h
 *		The live side's shared memory: the commit probe's per-process slots,
 *		the sampler's ring, the reset baseline, and reading them (shmem.c).
 *
 * IDENTIFICATION
 *	  src/live/shmem.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_SHMEM_H
#define WALPRESSURE_SHMEM_H

#include "access/xlogdefs.h"
#include "datatype/timestamp.h"
#include "port/atomics.h"
#include "storage/lwlock.h"

#include "common/histogram.h"

/*
 * The commit probe's counters for one process, indexed by pgprocno.  Only
 * the process owning the PGPROC writes its slot; counters only grow.
 */
typedef struct WpProbeSlot
{
	pg_atomic_uint64 commits;		/* committed transactions with an xid */
	pg_atomic_uint64 probed;		/* of those, told leader or follower */
	pg_atomic_uint64 leaders;		/* of those, this backend fsynced the WAL */
	pg_atomic_uint64 leader_fsyncs; /* WAL fsyncs done by leaders */
	pg_atomic_uint64 timed_fsyncs;	/* of those, timed (track_wal_io_timing) */
	pg_atomic_uint64 fsync_time_us; /* total time of the timed fsyncs */
	pg_atomic_uint64 commit_time_us;	/* total PRE_COMMIT -> COMMIT time */
	WpHist		commit_hist;	/* commit latency */
	WpHist		fsync_hist;		/* per-fsync latency of leaders */
} WpProbeSlot;


/*
 * Cumulative counters at one instant: the probe's sums over every process
 * and the server's own WAL and checkpointer statistics.  Samples, the
 * reset baseline and the live view's end point are all of this type, so
 * any two of them subtract into the activity between them.
 */
typedef struct WpCounters
{
	TimestampTz ts;
	/* commit probe */
	uint64		commits;
	uint64		probed;
	uint64		leaders;
	uint64		leader_fsyncs;
	uint64		timed_fsyncs;
	uint64		fsync_time_us;
	uint64		commit_time_us;
	/* the sampler: time commits spent waiting for a standby (IPC:SyncRep) */
	uint64		syncrep_wait_us;
	/* pg_stat_wal */
	int64		wal_records;
	int64		wal_fpi;
	uint64		wal_bytes;
	int64		wal_buffers_full;
	int64		wal_write;
	int64		wal_sync;
	int64		wal_write_time_us;
	int64		wal_sync_time_us;
	TimestampTz wal_reset_at;	/* pg_stat_wal's last reset */
	/* checkpointer */
	TimestampTz ckpt_reset_at;	/* its statistics' last reset */
	int64		ckpt_timed;
	int64		ckpt_requested;
	double		ckpt_write_ms;	/* of the checkpoints completed */
	double		ckpt_sync_ms;
	/* data-file buffers written, by whom */
	TimestampTz buf_reset_at;
	int64		buf_ckpt;
	int64		buf_clean;
	int64		buf_backend;
	int64		buf_backend_fsync;
	/* WAL positions */
	XLogRecPtr	insert_lsn;
	XLogRecPtr	flush_lsn;
} WpCounters;

/* Both probe histograms, summed over processes. */
typedef struct WpHistPair
{
	WpHistSnap	commit;
	WpHistSnap	fsync;
} WpHistPair;

/* One entry of the sample ring, written by the sampler. */
typedef struct WpSample
{
	WpCounters	c;
	/* percentiles over the interval ending at this sample, us; -1: none */
	float8		commit_p50_us;
	float8		commit_p99_us;
	float8		fsync_p50_us;
	float8		fsync_p99_us;
	/* IOs of the pg_wal disk so far: 1 /proc/diskstats, 2 the cgroup's, 0 none */
	int32		ios_source;
	uint64		dev_reads;
	uint64		dev_writes;
	/* processes waiting at the instant of the sample */
	int32		wait_walwrite_lock;
	int32		wait_wal_sync;
	int32		wait_wal_write;
	int32		wait_other;
} WpSample;

/*
 * Cumulative histograms, kept about once a second for the last minute so
 * that the live view can give percentiles over the last 60 seconds.
 */
#define WP_MINUTE_RING	128

typedef struct WpMinuteEntry
{
	WpCounters	c;
	WpHistPair	hist;
} WpMinuteEntry;

typedef struct WpShared
{
	LWLock	   *lock;			/* guards everything below, not the slots */
	int			nslots;			/* probe slots allocated */
	int			ring_size;		/* walpressure.sample_history */
	uint64		samples_taken;	/* since reset; ring index = n % ring_size */
	uint64		minutes_taken;	/* since reset; index = n % WP_MINUTE_RING */
	/* processes in IPC:SyncRep x time, summed by the sampler's fast tick */
	pg_atomic_uint64 syncrep_wait_us;
	WpCounters	base;			/* at the last reset() or server start */
	WpHistPair	base_hist;
	WpMinuteEntry minute[WP_MINUTE_RING];
} WpShared;

extern WpShared *wp_shared;
extern WpProbeSlot *wp_slots;
extern WpSample *wp_ring;

extern int	wp_sample_history;
extern Size wp_live_shmem_size(void);
extern void wp_live_shmem_init(LWLock *lock);
extern void wp_require_preload(void);
extern WpProbeSlot *wp_probe_slot(int procno);
extern void wp_probe_sum(WpCounters *c, WpHistPair *hist);
extern void wp_read_counters(WpCounters *c, WpHistPair *hist);
extern void wp_counters_reset(void);
extern void wp_minute_start(TimestampTz cutoff, WpMinuteEntry *base, WpMinuteEntry *minute);

#endif							/* WALPRESSURE_SHMEM_H */

/*-------------------------------------------------------------------------
 *
 * walpressure.h
 *		Shared declarations of walpressure: the shared-memory layout, the
 *		log-linear latency histogram, and the entry points of each file.
 *
 * Grouped by the file that defines them.  Everything that lives in shared
 * memory is declared here so that every process agrees on its layout.
 *
 * IDENTIFICATION
 *	  src/walpressure.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_H
#define WALPRESSURE_H

#include "access/xlogdefs.h"
#include "nodes/pg_list.h"
#include "datatype/timestamp.h"
#include "port/atomics.h"
#include "storage/lwlock.h"

/*
 * Add to a counter that only the calling process writes: a plain read and
 * write, no locked instruction (see shmem.c's locking notes).
 */
static inline void
wp_owned_add(pg_atomic_uint64 *counter, uint64 n)
{
	pg_atomic_write_u64(counter, pg_atomic_read_u64(counter) + n);
}

/* ---------- histogram.c ---------- */

/*
 * Log-linear histogram of durations in microseconds: exact below 16 us,
 * then 8 linear sub-buckets per power of two up to 2^30 us (about 18
 * minutes), larger values in the last bucket.  A bucket is at most 12.5%
 * wide, and percentiles interpolate inside it.
 */
#define WP_HIST_LINEAR		16
#define WP_HIST_SUB_BITS	3
#define WP_HIST_SUB			(1 << WP_HIST_SUB_BITS)
#define WP_HIST_MAX_BIT		30
#define WP_HIST_BUCKETS \
	(WP_HIST_LINEAR + (WP_HIST_MAX_BIT - 4 + 1) * WP_HIST_SUB)

/* A histogram written by one process only (see shmem.c's locking notes). */
typedef struct WpHist
{
	pg_atomic_uint64 bucket[WP_HIST_BUCKETS];
} WpHist;

/* A plain copy: a sum over processes, a snapshot, or a difference. */
typedef struct WpHistSnap
{
	uint64		bucket[WP_HIST_BUCKETS];
} WpHistSnap;

extern int	wp_hist_bucket(uint64 usec);
extern void wp_hist_add_owned(WpHist *hist, uint64 usec);
extern void wp_hist_accumulate(WpHistSnap *sum, const WpHist *hist);
extern void wp_hist_subtract(WpHistSnap *result, const WpHistSnap *later,
							 const WpHistSnap *earlier);
extern uint64 wp_hist_count(const WpHistSnap *snap);
extern double wp_hist_percentile(const WpHistSnap *snap, double fraction);

/* ---------- probe.c ---------- */

/*
 * The commit probe's counters for one process, indexed by pgprocno.  Only
 * the process owning the PGPROC writes its slot; counters only grow.
 */
typedef struct WpProbeSlot
{
	pg_atomic_uint64 commits;		/* committed transactions with an xid */
	pg_atomic_uint64 leaders;		/* of those, this backend fsynced the WAL */
	pg_atomic_uint64 leader_fsyncs; /* WAL fsyncs done by leaders */
	pg_atomic_uint64 timed_fsyncs;	/* of those, timed (track_wal_io_timing) */
	pg_atomic_uint64 fsync_time_us; /* total time of the timed fsyncs */
	pg_atomic_uint64 commit_time_us;	/* total PRE_COMMIT -> COMMIT time */
	WpHist		commit_hist;	/* commit latency */
	WpHist		fsync_hist;		/* per-fsync latency of leaders */
} WpProbeSlot;

extern void wp_probe_register(void);

/* ---------- shmem.c ---------- */

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
	uint64		leaders;
	uint64		leader_fsyncs;
	uint64		timed_fsyncs;
	uint64		fsync_time_us;
	uint64		commit_time_us;
	/* pg_stat_wal */
	int64		wal_records;
	int64		wal_fpi;
	uint64		wal_bytes;
	int64		wal_buffers_full;
	int64		wal_write;
	int64		wal_sync;
	int64		wal_write_time_us;
	int64		wal_sync_time_us;
	/* checkpointer */
	int64		ckpt_timed;
	int64		ckpt_requested;
	double		ckpt_write_ms;	/* of the checkpoints completed */
	double		ckpt_sync_ms;
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
	WpCounters	base;			/* at the last reset() or server start */
	WpHistPair	base_hist;
	WpMinuteEntry minute[WP_MINUTE_RING];
} WpShared;

extern WpShared *wp_shared;
extern Size wp_sweep_size(void);
extern WpProbeSlot *wp_slots;
extern WpSample *wp_ring;

extern void wp_shmem_install_hooks(void);
extern void wp_require_preload(void);
extern WpProbeSlot *wp_probe_slot(int procno);
extern void wp_probe_sum(WpCounters *c, WpHistPair *hist);
extern void wp_read_counters(WpCounters *c, WpHistPair *hist);
extern void wp_counters_reset(void);

/* ---------- sweep.c, client.c: the sweep control block ---------- */

/* Workloads a client worker runs. */
typedef enum WpWorkload
{
	WP_WORKLOAD_SIMPLE_UPDATE,
	WP_WORKLOAD_TPCB_LIKE,
	WP_WORKLOAD_INSERT_ONLY,
	WP_WORKLOAD_BATCH_INSERT,
	WP_WORKLOAD_CUSTOM
} WpWorkload;

/* Life of the one sweep the server runs at a time. */
typedef enum WpSweepState
{
	WP_SWEEP_IDLE = 0,			/* none: run_sweep may claim the block */
	WP_SWEEP_STARTING,			/* claimed; coordinator not yet running */
	WP_SWEEP_RUNNING,			/* coordinator recorded the sweep row */
	WP_SWEEP_FINISHED			/* coordinator ended; the launcher reads why */
} WpSweepState;

/* Final status of a sweep, as written in walpressure.sweeps. */
#define WP_STATUS_LEN 16

/*
 * One client worker's counters.  Written only by that client (see shmem.c),
 * read by the coordinator while it runs and after it exits.
 */
typedef struct WpClientSlot
{
	pg_atomic_uint64 txns;		/* transactions committed */
	pg_atomic_uint64 retries;	/* serialization failures and deadlocks */
	double		latency_ms;		/* sum of committed transactions' times */
	double		latency_sq_ms;	/* sum of their squares, ms^2 */
	pg_atomic_uint32 flushed_gen;	/* last flush_gen acted upon */
	pg_atomic_uint32 done;		/* 1 when the client left its loop */
	WpHist		hist;			/* transaction latency */
	char		error[256];		/* why it stopped early, "" if it did not */
} WpClientSlot;

#define WP_REQUEST_MAX 65536	/* run_sweep's arguments, as jsonb text */
#define WP_SETTINGS_MAX 8192	/* the step's settings, name=value lines */
#define WP_SQL_MAX 32768		/* the custom workload's SQL */
#define WP_MESSAGE_MAX 1024

typedef struct WpSweep
{
	/* guarded by sweep_lock */
	WpSweepState state;
	uint64		launch_seq;		/* bumped by each claim */
	uint64		finished_seq;	/* the launch whose worker last finished */
	int64		sweep_id;		/* 0 until the coordinator recorded it */
	pid_t		launcher_pid;	/* the backend in run_sweep */
	int			launcher_procno;	/* its PGPROC, to set its latch */
	char		status[WP_STATUS_LEN];	/* done, cancelled, failed */
	char		message[WP_MESSAGE_MAX];	/* error of a failed sweep */

	/* set by run_sweep before the coordinator starts, then read-only */
	Oid			dboid;
	Oid			roleoid;
	char		request[WP_REQUEST_MAX];

	/* progress, written by the coordinator for run_sweep's NOTICEs */
	pg_atomic_uint32 steps_done;
	int			steps_total;
	char		last_step[WP_MESSAGE_MAX];

	/* flags: set by anyone, read by coordinator and clients */
	pg_atomic_uint32 cancel;	/* stop the sweep */
	pg_atomic_uint32 stop;		/* clients: leave after this transaction */
	pg_atomic_uint32 flush_gen; /* clients: flush statistics now */

	/* the current step, written by the coordinator before clients start */
	WpWorkload	workload;
	int			nclients;
	int			batch_size;
	int			round_trip_us;	/* emulated client round trip per statement */
	int			scale;
	char		settings[WP_SETTINGS_MAX];	/* "name=value\n" lines */
	char		sql[WP_SQL_MAX];

	/* the settings probe: names asked, "name=value" lines seen */
	char		probe_names[WP_SETTINGS_MAX];
	char		probe_values[WP_SETTINGS_MAX];

	int			nslots;
	WpClientSlot client[FLEXIBLE_ARRAY_MEMBER];
} WpSweep;

extern WpSweep *wp_sweep;
extern LWLock *wp_sweep_lock;

/* sweep.c */
PGDLLEXPORT void wp_coordinator_main(Datum main_arg);
PGDLLEXPORT void wp_recovery_main(Datum main_arg);
extern void wp_sweep_state_file_check(void);
extern bool wp_sweep_recovery_pending(int64 *id);
extern void wp_worker_finish(const char *status, const char *message, int64 sweep_id);
extern void wp_wake_launcher(void);

/* launch.c */
extern bool wp_is_sweepable(const char *name);
extern bool wp_is_load_param(const char *name);
extern bool wp_is_server_setting(const char *name);
extern const char *wp_data_loss(const char *name, const char *value);
extern List *wp_setting_lines(const char *lines, List **values);

/* server_settings.c */
PGDLLEXPORT void wp_settings_probe_main(Datum main_arg);
extern void wp_server_settings_startup(void);
extern void wp_server_settings_begin(int64 sweep_id, List *managed);
extern void wp_server_settings_apply(List *names, List *values);
extern const char *wp_server_settings_end(int64 sweep_id, bool check, const char *originals);

/* init_pgbench.c */
PGDLLEXPORT void wp_init_pgbench_main(Datum main_arg);

/* client.c */
PGDLLEXPORT void wp_client_main(Datum main_arg);
/* The clients' counters summed, at one instant. */
typedef struct WpClientTotals
{
	uint64		txns;
	uint64		retries;
	double		latency_ms;
	double		latency_sq_ms;
	WpHistSnap	hist;
} WpClientTotals;

extern void wp_client_sum(int nclients, WpClientTotals *totals);

/* ---------- cgroup.c ---------- */

typedef enum WpCgroupMode
{
	WP_CG_NONE,
	WP_CG_V1,
	WP_CG_V2,
	WP_CG_HYBRID				/* v1 blkio beside a v2 mount */
} WpCgroupMode;

typedef struct WpDevice
{
	unsigned	major;
	unsigned	minor;
} WpDevice;

extern char *wp_cgroup_name;

extern WpCgroupMode wp_cgroup_mode(void);
extern const char *wp_cgroup_mode_name(WpCgroupMode mode);
extern char *wp_cgroup_problem(WpCgroupMode *mode, char **detail, char **hint);
extern WpCgroupMode wp_cgroup_check(void);
extern WpDevice wp_wal_device(const char *override);
extern bool wp_wal_device_try(WpDevice *dev);
extern void wp_cgroup_set_limits(WpCgroupMode mode, WpDevice dev,
								 int64 write_iops, int64 read_iops);
extern void wp_cgroup_get_limits(WpCgroupMode mode, WpDevice dev,
								 int64 *write_iops, int64 *read_iops);
extern List *wp_server_pids(void);
extern int	wp_cgroup_enroll(WpCgroupMode mode);
extern void wp_cgroup_enrolled(WpCgroupMode mode, int *in, int *total);
extern bool wp_cgroup_self_enrolled(WpCgroupMode mode);
extern bool wp_cgroup_ios(WpCgroupMode mode, WpDevice dev, uint64 *reads, uint64 *writes);
extern bool wp_diskstats_ios(WpDevice dev, uint64 *reads, uint64 *writes);

/* ---------- worker.c ---------- */

struct BackgroundWorker;
extern void wp_dynamic_worker(struct BackgroundWorker *worker, const char *function,
							  const char *name);
extern ErrorData *wp_catch_error(MemoryContext cxt);

/* ---------- sampler.c ---------- */

extern void wp_sampler_register(void);
PGDLLEXPORT void wp_sampler_main(Datum main_arg);

/* ---------- walpressure.c (GUCs) ---------- */

extern int	wp_sample_interval_ms;
extern int	wp_sample_history;

#endif							/* WALPRESSURE_H */

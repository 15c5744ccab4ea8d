/*-------------------------------------------------------------------------
 *
 * figures.h
 *		A step's figures as a pure function of the counters read at its
 *		window's edges (figures.c).
 *
 * IDENTIFICATION
 *	  src/sweep/figures.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_FIGURES_H
#define WALPRESSURE_FIGURES_H

#include "access/xlogdefs.h"

#include "live/shmem.h"
#include "sweep/load.h"

/* The counters a step reads at its window's edges: the figures' inputs. */
typedef struct WpStepCounters
{
	WpCounters	c0;				/* server and probe, window start */
	WpCounters	c1;				/* at the window's end, the clients running */
	WpHistPair	h0;
	WpHistPair	h1;
	WpLoadTotals t0;			/* the clients', window start */
	WpLoadTotals t1;			/* and end */
	double		seconds;		/* the measured window */
	bool		have_ios;
	uint64		reads0,
				writes0,
				reads1,
				writes1;
	bool		open_sync;		/* wal_sync_method syncs each write */
	double		rate;			/* open loop: the rate asked (tps), 0: closed loop */
	double		latency_limit_ms;	/* pgbench's --latency-limit, 0: none */
} WpStepCounters;

/*
 * An open-loop step sustained its rate when it achieved at least this share
 * of it, or fell short by no more than the Poisson arrivals' own spread
 * (3 standard deviations of the count of arrivals in the window).
 */
#define WP_RATE_SUSTAINED		0.98

/* What one step measured. */
typedef struct WpStepResult
{
	TimestampTz started_at;
	double		seconds;		/* measured window */
	uint64		transactions;
	uint64		retries;
	double		tps;
	double		latency_avg_ms;
	double		latency_stddev_ms;
	double		latency_p50_ms; /* < 0: none */
	double		latency_p95_ms;
	double		latency_p99_ms;
	double		latency_p999_ms;
	/* open loop: < 0 (or rate 0) when closed */
	double		rate;			/* asked, tps; 0: closed loop */
	double		rate_achieved;	/* transactions that ended in the window, per second */
	bool		rate_sustained;
	double		lag_avg_ms;		/* schedule lag: scheduled to actual start */
	double		lag_p50_ms;
	double		lag_p99_ms;
	int64		txns_late;		/* above the latency limit; < 0: no limit */
	int64		txns_skipped;	/* not run: later than the limit; < 0: none asked */
	int64		commits;
	int64		leaders;
	int64		wal_fsyncs;
	double		span_s;			/* the window, as the counters saw it */
	double		commit_avg_ms;	/* the commits' own time (the probe's), < 0: none */
	double		commit_p99_ms;
	double		fsync_avg_ms;	/* < 0: none timed */
	double		fsync_p50_ms;
	double		fsync_p99_ms;
	int64		wal_bytes;
	int64		wal_records;
	int64		wal_fpi;
	int64		fpi_bytes;		/* full-page image bytes in the window's WAL, < 0: unknown */
	int64		wal_buffers_full;
	int64		ckpt_timed;
	int64		ckpt_requested;
	double		ckpt_write_ms;
	double		ckpt_sync_ms;
	int64		buf_ckpt;		/* data-file buffers written by the checkpointer */
	int64		buf_clean;		/* ... the background writer */
	int64		buf_backend;	/* ... every other process */
	int64		buf_backend_fsync;
	bool		buf_reset;		/* their statistics were reset in the window */
	double		read_iops;		/* < 0: not measured */
	double		write_iops;
	XLogRecPtr	lsn_start;		/* WAL insert position at the window's start */
	XLogRecPtr	lsn_end;		/* and at its end */
	/* the step's conditions */
	char	   *data_loss;		/* labels of the step's settings, NULL: none */
	int64		iops_cap;		/* the step's write cap, 0: none */
	const char *disk;			/* the disk the cap stands for, NULL: none */
	char	   *discarded;		/* why the step is left out, NULL: it counts */
	bool		wal_reset;		/* pg_stat_wal was reset in the window: its figures are void */
	bool		ckpt_reset;		/* so were the checkpointer's */
	double		setup_s;		/* the step's start to its load's start */
	/* CPU seconds over the window; < 0: not measured */
	double		client_cpu_s;	/* the load generator's (pgbench) */
	double		server_cpu_s;	/* the server's processes' */
	/* synchronous standbys: < 0 when the server had no walsender and no wait */
	double		syncrep_wait_pct;	/* share of the commits' time in IPC:SyncRep */
	double		syncrep_wait_ms;	/* that time per commit */
	struct WpStandbyFig *standbys;	/* each walsender over the window */
	int			nstandbys;
	double		standby_wal_mb_per_s;	/* standby_conninfo's; < 0: none */
	double		standby_wal_writes_per_s;
	double		standby_wal_fsyncs_per_s;
	double		standby_write_iops;
	const char *standby_source; /* where those came from, NULL: none */
	bool		standby_lost;	/* the step ended because its standby was lost */
	bool		skipped;		/* not run: its standby was not there (on_standby_loss => skip) */
	/* the load's statements over the window (pg_stat_statements), most time first */
	struct WpStmtFig *stmts;
	int			nstmts;
} WpStepResult;

extern double wp_us_to_ms(double us);
extern bool wp_rate_sustained(double rate, double achieved, double seconds);
extern void wp_step_figures(const WpStepCounters *k, WpStepResult *r);

#endif							/* WALPRESSURE_FIGURES_H */

/*-------------------------------------------------------------------------
 *
 * figures.c
 *		What a step reports, computed from the counters read at its
 *		window's edges: the clients' transactions and latencies, the
 *		server's commits, WAL fsyncs, WAL volume and checkpoints, the
 *		disk's IOs.  Pure: the same counters always give the same figures,
 *		whatever engine ran the load.  It depends on nothing but the
 *		histogram, so test/unit exercises it outside a server.
 *
 * IDENTIFICATION
 *	  src/sweep/figures.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "sweep/figures.h"

/* Microseconds to milliseconds; a negative value (none) stays -1. */
double
wp_us_to_ms(double us)
{
	return us < 0 ? -1 : us / 1000.0;
}

/*
 * Did an open-loop step keep up with its rate?  Short of it by more than
 * 2% and by more than the Poisson arrivals explain (3 standard deviations
 * of their count in the window): no.  Then the clients were busy all the
 * time and the step measured a closed loop in disguise.
 */
bool
wp_rate_sustained(double rate, double achieved, double seconds)
{
	double		shortfall = (rate - achieved) * seconds;

	return achieved >= WP_RATE_SUSTAINED * rate ||
		shortfall <= 3 * sqrt(Max(rate * seconds, 0));
}

/* The open loop's figures: the rate asked and kept, the lag, late and skipped. */
static void
wp_open_loop_figures(const WpStepCounters *k, WpStepResult *r)
{
	WpHistSnap	lag;
	uint64		n = r->transactions;

	r->rate = k->rate;
	r->rate_achieved = r->lag_avg_ms = r->lag_p50_ms = r->lag_p99_ms = -1;
	r->txns_late = k->latency_limit_ms > 0 ? (int64) (k->t1.late - k->t0.late) : -1;
	r->txns_skipped = k->rate > 0 && k->latency_limit_ms > 0 ?
		(int64) (k->t1.skipped - k->t0.skipped) : -1;
	r->rate_sustained = true;
	if (k->rate <= 0)
		return;
	r->rate_achieved = r->tps;
	r->rate_sustained = wp_rate_sustained(k->rate, r->tps, k->seconds);
	if (n == 0)
		return;
	r->lag_avg_ms = (k->t1.lag_ms - k->t0.lag_ms) / n;
	wp_hist_subtract(&lag, &k->t1.lag_hist, &k->t0.lag_hist);
	r->lag_p50_ms = wp_us_to_ms(wp_hist_percentile(&lag, 0.50));
	r->lag_p99_ms = wp_us_to_ms(wp_hist_percentile(&lag, 0.99));
}

/*
 * A step's figures from the counters at its window's edges.  Pure: the
 * same counters give the same figures.
 */
void
wp_step_figures(const WpStepCounters *k, WpStepResult *r)
{
	WpHistSnap	delta;
	uint64		n = k->t1.txns - k->t0.txns;
	int64		timed = (int64) (k->c1.timed_fsyncs - k->c0.timed_fsyncs);

	r->seconds = k->seconds;
	r->transactions = n;
	r->retries = k->t1.retries - k->t0.retries;
	r->tps = k->seconds > 0 ? n / k->seconds : 0;
	r->latency_avg_ms = r->latency_stddev_ms = -1;
	if (n > 0)
	{
		double		mean = (k->t1.latency_ms - k->t0.latency_ms) / n;
		double		var = (k->t1.latency_sq_ms - k->t0.latency_sq_ms) / n - mean * mean;

		r->latency_avg_ms = mean;
		r->latency_stddev_ms = sqrt(Max(var, 0.0));
	}
	wp_hist_subtract(&delta, &k->t1.hist, &k->t0.hist);
	r->latency_p50_ms = wp_us_to_ms(wp_hist_percentile(&delta, 0.50));
	r->latency_p95_ms = wp_us_to_ms(wp_hist_percentile(&delta, 0.95));
	r->latency_p99_ms = wp_us_to_ms(wp_hist_percentile(&delta, 0.99));
	r->latency_p999_ms = wp_us_to_ms(wp_hist_percentile(&delta, 0.999));
	wp_open_loop_figures(k, r);

	r->read_iops = r->write_iops = -1;
	if (k->have_ios && k->seconds > 0)
	{
		r->read_iops = (k->reads1 - k->reads0) / k->seconds;
		r->write_iops = (k->writes1 - k->writes0) / k->seconds;
	}

	r->span_s = (double) (k->c1.ts - k->c0.ts) / USECS_PER_SEC;
	r->commits = k->c1.commits - k->c0.commits;
	r->leaders = k->c1.leaders - k->c0.leaders;
	/* open_sync and open_datasync sync each write and count no fsync */
	r->wal_fsyncs = k->open_sync ? k->c1.wal_write - k->c0.wal_write :
		k->c1.wal_sync - k->c0.wal_sync;
	r->commit_avg_ms = r->commits > 0 ?
		(double) (k->c1.commit_time_us - k->c0.commit_time_us) / r->commits / 1000.0 : -1;
	wp_hist_subtract(&delta, &k->h1.commit, &k->h0.commit);
	r->commit_p99_ms = wp_us_to_ms(wp_hist_percentile(&delta, 0.99));
	r->fsync_avg_ms = timed > 0 ?
		(double) (k->c1.fsync_time_us - k->c0.fsync_time_us) / timed / 1000.0 : -1;
	wp_hist_subtract(&delta, &k->h1.fsync, &k->h0.fsync);
	r->fsync_p50_ms = wp_us_to_ms(wp_hist_percentile(&delta, 0.50));
	r->fsync_p99_ms = wp_us_to_ms(wp_hist_percentile(&delta, 0.99));
	r->wal_bytes = k->c1.wal_bytes - k->c0.wal_bytes;
	r->wal_records = k->c1.wal_records - k->c0.wal_records;
	r->wal_fpi = k->c1.wal_fpi - k->c0.wal_fpi;
	r->wal_buffers_full = k->c1.wal_buffers_full - k->c0.wal_buffers_full;
	r->ckpt_timed = k->c1.ckpt_timed - k->c0.ckpt_timed;
	r->ckpt_requested = k->c1.ckpt_requested - k->c0.ckpt_requested;
	r->ckpt_write_ms = k->c1.ckpt_write_ms - k->c0.ckpt_write_ms;
	r->ckpt_sync_ms = k->c1.ckpt_sync_ms - k->c0.ckpt_sync_ms;
	/* a reset in the window (pg_stat_reset_shared) makes these differences void */
	r->wal_reset = k->c1.wal_reset_at != k->c0.wal_reset_at ||
		k->c1.wal_records < k->c0.wal_records || k->c1.wal_bytes < k->c0.wal_bytes ||
		k->c1.wal_sync < k->c0.wal_sync || k->c1.wal_write < k->c0.wal_write;
	r->ckpt_reset = k->c1.ckpt_reset_at != k->c0.ckpt_reset_at ||
		k->c1.ckpt_timed < k->c0.ckpt_timed || k->c1.ckpt_requested < k->c0.ckpt_requested;
	r->buf_ckpt = k->c1.buf_ckpt - k->c0.buf_ckpt;
	r->buf_clean = k->c1.buf_clean - k->c0.buf_clean;
	r->buf_backend = k->c1.buf_backend - k->c0.buf_backend;
	r->buf_backend_fsync = k->c1.buf_backend_fsync - k->c0.buf_backend_fsync;
	r->buf_reset = k->c1.buf_reset_at != k->c0.buf_reset_at ||
		r->buf_ckpt < 0 || r->buf_clean < 0 || r->buf_backend < 0 || r->buf_backend_fsync < 0;
	r->lsn_start = k->c0.insert_lsn;
	r->lsn_end = k->c1.insert_lsn;
	r->started_at = k->c0.ts;
}

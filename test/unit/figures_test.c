/*-------------------------------------------------------------------------
 *
 * figures_test.c
 *		Unit test of wp_step_figures (src/figures.c): known counters at a
 *		window's edges in, the step's figures out.  Built and run outside a
 *		server by test/run; prints TAP.
 *
 * IDENTIFICATION
 *	  test/unit/figures_test.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>
#include <stdio.h>

#include "sweep/figures.h"

#include "tap.h"

/* n transactions of `us` microseconds each, added to a clients' total. */
static void
add_txns(WpLoadTotals *t, uint64 n, double us)
{
	t->txns += n;
	t->latency_ms += n * us / 1000.0;
	t->latency_sq_ms += n * (us / 1000.0) * (us / 1000.0);
	t->hist.bucket[wp_hist_bucket((uint64) us)] += n;
}

int
main(void)
{
	WpStepCounters k;
	WpStepResult r;

	/* a clean window: 1000 transactions of 3 ms after 100 of 2 ms */
	memset(&k, 0, sizeof(k));
	add_txns(&k.t0, 100, 2000);
	k.t1 = k.t0;
	add_txns(&k.t1, 1000, 3000);
	k.seconds = 10.0;
	k.c0.ts = 1000000;
	k.c1.ts = k.c0.ts + 11 * 1000000;
	k.c1.commits = 1000;
	k.c1.leaders = 200;
	k.c1.commit_time_us = 1000 * 2500;
	k.h1.commit.bucket[wp_hist_bucket(2500)] = 1000;
	k.c1.wal_sync = 250;
	k.c1.wal_write = 400;
	k.c1.timed_fsyncs = 200;
	k.c1.fsync_time_us = 200 * 1500;
	k.h1.fsync.bucket[wp_hist_bucket(1500)] = 200;
	k.c0.wal_bytes = 1000;
	k.c1.wal_bytes = 81000;
	k.c1.wal_records = 500;
	k.c1.wal_fpi = 50;
	k.c1.ckpt_requested = 1;
	k.c1.ckpt_write_ms = 12.5;
	k.c0.insert_lsn = 100;
	k.c1.insert_lsn = 81100;
	k.have_ios = true;
	k.reads1 = 50;
	k.writes0 = 100;
	k.writes1 = 2100;
	wp_step_figures(&k, &r);

	ok(r.transactions == 1000, "transactions: the clients' count over the window only");
	near(r.tps, 100.0, 1e-9, "tps: transactions over the window's seconds");
	near(r.latency_avg_ms, 3.0, 1e-9, "latency mean over the window, warm-up excluded");
	near(r.latency_stddev_ms, 0.0, 1e-6, "latency stddev of identical transactions is 0");
	near(r.latency_p50_ms, 3.0, 3.0 * 0.125, "latency p50 within a bucket (12.5%)");
	near(r.latency_p99_ms, 3.0, 3.0 * 0.125, "latency p99 within a bucket");
	ok(r.commits == 1000 && r.leaders == 200, "commits and leaders: server deltas");
	ok(r.wal_fsyncs == 250, "WAL fsyncs: pg_stat_wal's wal_sync delta");
	near(r.commit_avg_ms, 2.5, 1e-9, "commit mean: the probe's commit time over its commits");
	near(r.commit_p99_ms, 2.5, 2.5 * 0.125, "commit p99 from the probe's histogram");
	near(r.span_s, 11.0, 1e-9, "server span: window start to the clients' exit");
	near(r.fsync_avg_ms, 1.5, 1e-9, "fsync mean: timed time over timed fsyncs");
	near(r.fsync_p50_ms, 1.5, 1.5 * 0.125, "fsync p50 from the probe's histogram");
	ok(r.wal_bytes == 80000 && r.wal_records == 500 && r.wal_fpi == 50, "WAL volume deltas");
	ok(r.ckpt_requested == 1 && r.ckpt_timed == 0, "checkpoints inside the window");
	near(r.read_iops, 5.0, 1e-9, "read IOPS over the window");
	near(r.write_iops, 200.0, 1e-9, "write IOPS over the window");
	ok(r.lsn_start == 100 && r.lsn_end == 81100, "the step's WAL window");

	/* open_sync and open_datasync: each write is a sync */
	k.open_sync = true;
	wp_step_figures(&k, &r);
	ok(r.wal_fsyncs == 400, "open_sync: WAL writes count as fsyncs");

	/* nothing measured: no division by zero, figures marked missing */
	memset(&k, 0, sizeof(k));
	wp_step_figures(&k, &r);
	ok(r.transactions == 0 && r.tps == 0, "an empty window: 0 transactions, 0 tps");
	ok(r.latency_avg_ms < 0 && r.latency_p50_ms < 0, "an empty window: no latency");
	ok(r.fsync_avg_ms < 0 && r.fsync_p99_ms < 0, "no timed fsync: no fsync latency");
	ok(r.commit_avg_ms < 0 && r.commit_p99_ms < 0, "no commit: no commit time");
	ok(r.read_iops < 0 && r.write_iops < 0, "no disk counters: no IOPS");

	ok(r.rate == 0 && r.txns_late < 0 && r.txns_skipped < 0 && r.lag_avg_ms < 0 && r.rate_sustained,
	   "a closed loop: no rate, lag, late or skipped");

	/* an open loop at 100/s for 10 s: 990 ended, each 4 ms with 1 ms of lag */
	memset(&k, 0, sizeof(k));
	k.seconds = 10;
	k.rate = 100;
	k.latency_limit_ms = 3.5;
	add_txns(&k.t1, 990, 4000);
	k.t1.lag_ms = 990 * 1.0;
	k.t1.lag_hist.bucket[wp_hist_bucket(1000)] = 990;
	k.t1.late = 990;
	k.t1.skipped = 7;
	wp_step_figures(&k, &r);
	near(r.rate_achieved, 99.0, 1e-9, "open loop: the rate achieved is the window's transactions per second");
	ok(r.rate_sustained, "99 of 100/s: sustained (within 2%)");
	near(r.lag_avg_ms, 1.0, 1e-9, "the mean schedule lag");
	near(r.lag_p50_ms, 1.0, 0.13, "the lag's median, from its histogram");
	ok(r.txns_late == 990 && r.txns_skipped == 7, "late and skipped against the latency limit");
	near(r.latency_p999_ms, 4.0, 0.5, "p99.9 from the latency histogram");

	/* short of the rate: beyond 2% and beyond the Poisson arrivals' spread */
	ok(!wp_rate_sustained(1000, 900, 20), "900 of 1000/s over 20 s: not sustained");
	ok(wp_rate_sustained(1000, 985, 20), "985 of 1000/s: within 2%");
	ok(wp_rate_sustained(100, 90, 2), "90 of 100/s over 2 s: short by 10%, but within 3 standard deviations of 200 Poisson arrivals");
	ok(!wp_rate_sustained(100, 50, 10), "50 of 100/s over 10 s: not sustained");

	return done_testing();
}

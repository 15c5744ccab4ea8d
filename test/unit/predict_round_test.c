/*
 * test/unit/predict_round_test.c: one round's prediction behind predict()
 * (src/sweep/predict_round.c), outside a server: at the cap and clients
 * measured it gives the step back; a flush's cost follows the cap down to
 * the disk's own time, and under the throttle never below the cap's share
 * of a cycle; above the cap of a bound disk whose own time was not seen it
 * refuses; the other bound reaches down with more clients and up with
 * fewer or a higher cap; and a cycle that costs nothing has no flush share.
 */
#include "postgres.h"

#include <math.h>
#include <stdio.h>

#include "sweep/predict_round.h"

#include "tap.h"

/* a step of 10 clients at 2000 tps, 5 commits a flush, each flush 2 write IOs */
static const WpPrRound step = {
	.clients = 10, .tps = 2000, .commit_avg_ms = 3, .server_cpu_s = 5, .client_cpu_s = 1,
	.transactions = 20000, .commits = 20000, .wal_fsyncs = 4000, .write_iops = 800,
	.wal_fsyncs_per_s = 400, .fsync_avg_ms = 2, .cpus = 2, .paced = true
};

static const char *
run(const WpPrRound *r, int cap0, int n0, int c1, int n1, double delay_s, double own, WpPrOut *out,
	double *f1)
{
	WpPrAt		at = {.cap0 = cap0, .n0 = n0, .c1 = c1, .n1 = n1, .delay_s = delay_s, .own = own};
	WpPrFit		fit;
	const char *why = wp_pr_begin(r, &at, &fit);

	*f1 = fit.f1;
	if (why == NULL)
		wp_pr_finish(r, &at, &fit, out);
	return why;
}

int
main(void)
{
	WpPrOut		same;
	WpPrOut		half;
	WpPrOut		out;
	WpPrRound	r = step;
	double		f1;

	/* at the cap and clients measured: the step back, no other bound */
	ok(run(&step, 1000, 10, 1000, 10, 0, NAN, &same, &f1) == NULL, "the measured point is predicted");
	near(f1, 0.002, 1e-12, "a flush costs what it cost");
	near(same.tps, 2000, 0.5, "its tps");
	near(same.commit_ms, 3, 1e-3, "its commit's time");
	ok(isnan(same.tps_alt), "no other bound where the model moves nothing");
	near(same.latency_ms, 10 / same.tps * 1000, 1e-9, "latency: clients over tps");
	near(same.cpu_share, same.tps * (6.0 / 20000) / 2, 1e-12, "the CPUs' share: tps times CPU seconds a transaction over the CPUs");
	near(same.write_iops, 2 * fmin(same.tps, same.tps / same.g), 1e-6, "write IOPS: 2 a flush");

	/* half the cap on the paced disk, the disk's own time 0.1 ms */
	ok(run(&step, 1000, 10, 500, 10, 0, 0.0001, &half, &f1) == NULL, "half the cap");
	near(f1, 2.0 / 500, 1e-12, "2 write IOs a flush: never less than the new cap's share of them");
	ok(half.tps < same.tps, "fewer tps");
	ok(half.g > same.g, "more commits a flush");
	ok(isnan(half.tps_alt), "the same clients at a lower cap: no other bound");
	r.write_iops = 720;
	(void) run(&r, 1000, 10, 500, 10, 0, 0.0001, &out, &f1);
	near(f1, 0.0001 + 0.0019 * 2, 1e-12, "1.8 write IOs a flush: the disk's own time, and the rest twice");
	r = step;

	/* above the cap of a bound disk (800 write IOPS of 1000 is not 90%; 400 flushes of 2 ms is 80%) */
	ok(run(&step, 1000, 10, 2000, 10, 0, NAN, &out, &f1) == NULL, "a disk that did not bind: predicted above its cap");
	ok(!isnan(out.tps_alt) && out.tps_alt >= out.tps, "a higher cap: the interval reaches up");
	r.write_iops = 900;
	ok(run(&r, 1000, 10, 2000, 10, 0, NAN, &out, &f1) != NULL, "write IOPS at 90% of the cap, the disk's own time not seen: refused");
	ok(run(&r, 1000, 10, 2000, 10, 0, 0.0001, &out, &f1) == NULL, "with the disk's own time known: predicted");
	r.write_iops = 800;
	r.fsync_avg_ms = 2.3;
	ok(run(&r, 1000, 10, 2000, 10, 0, NAN, &out, &f1) != NULL,
	   "on the paced disk a flush in progress 92% of the time binds too");
	r.paced = false;
	ok(run(&r, 1000, 10, 2000, 10, 0, NAN, &out, &f1) == NULL, "under the throttle it does not");
	r = step;

	/* the throttle: a flush that cost the disk's own time at the cap spends the cap's tokens lower */
	r.fsync_avg_ms = 0.2;
	ok(run(&r, 1000, 10, 250, 10, 0, 0.0002, &out, &f1) == NULL, "a quarter of the cap");
	near(f1, 2.0 / 250 - (2.0 / 1000 - 0.0002), 1e-12, "a cycle's 2 write IOs at the new cap, less what the measured one fell short");
	r = step;

	/* clients: the other bound down with more, up with fewer */
	ok(run(&step, 1000, 10, 1000, 20, 0, NAN, &out, &f1) == NULL, "twice the clients");
	ok(!isnan(out.tps_alt) && out.tps_alt <= out.tps, "more clients: the interval reaches down");
	ok(run(&step, 1000, 10, 1000, 5, 0, NAN, &out, &f1) == NULL, "half the clients");
	ok(!isnan(out.tps_alt) && out.tps_alt >= out.tps, "fewer clients: the interval reaches up");
	ok(out.tps_alt <= 2 / (6.0 / 20000) + 1e-9, "never beyond what the CPUs allow");

	/* no CPU time: the bound is the flushes' alone */
	r.server_cpu_s = 0;
	r.client_cpu_s = 0;
	(void) run(&r, 1000, 10, 1000, 5, 0, NAN, &out, &f1);
	ok(isfinite(out.tps_alt) && out.tps_alt > 0, "no CPU time: a bound from the flushes alone");
	r = step;

	/* commit_delay: the flush's share of a cycle is less than the cycle's */
	ok(run(&step, 1000, 10, 1000, 10, 0.001, NAN, &out, &f1) == NULL, "with commit_delay 1 ms");
	ok(out.flush_busy < 1 && out.flush_busy > 0, "the disk flushes part of a running cycle");

	return done_testing();
}

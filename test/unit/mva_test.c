/*
 * test/unit/mva_test.c: the MVA behind predict() (src/sweep/mva.c), outside
 * a server: one client's cycle, the bounds of a saturated queue, a fit
 * that gives back what it was fitted to, and the network at the throughput
 * a flush that never idles sets.
 */
#include "postgres.h"

#include <math.h>
#include <stdio.h>

#include "sweep/mva.h"

#include "tap.h"

int
main(void)
{
	WpMvaNet	net = {.cpu_demand = 0.001, .cpus = 1, .flush_demand = 0.002, .delay = 0.004};
	WpMvaOut	out;
	WpMvaNet	fit = {.cpu_demand = 0.0005, .cpus = 2};

	/* one client: no queue, its cycle is the sum of its demands */
	wp_mva(&net, 1, &out);
	near(out.tps, 1 / 0.007, 1e-9, "one client: 1 / (cpu + flush + delay)");
	near(out.flush_s, 0.002, 1e-12, "one client: the flush takes its demand");

	/* many clients: the flush, the slowest queue, bounds the throughput */
	wp_mva(&net, 200, &out);
	near(out.tps, 500, 0.5, "saturated: 1 / the largest demand");
	ok(out.flush_s > 0.3, "saturated: the clients queue at the flush");

	/* two CPUs serve twice what one does */
	net.flush_demand = 0;
	net.delay = 0;
	net.cpus = 2;
	wp_mva(&net, 100, &out);
	near(out.tps, 2000, 1, "CPU-bound: cpus / cpu demand");

	/* a fit gives back the tps and commit time it was fitted to */
	ok(wp_mva_fit(10, 1000, 0.004, &fit), "a consistent step is fitted");
	wp_mva(&fit, 10, &out);
	near(out.tps, 1000, 10, "the fitted network gives the measured tps");
	near(out.flush_s, 0.004, 0.00004, "and the measured commit time");
	ok(fit.delay > 0 && fit.flush_demand > 0 && fit.flush_demand < 0.001, "with a delay and a flush demand below 1 / tps");

	/* a flush twice as slow: fewer tps, a longer commit */
	fit.flush_demand *= 2;
	wp_mva(&fit, 10, &out);
	ok(out.tps < 1000 && out.tps > 450, "half the cap: fewer tps, not below half");
	ok(out.flush_s > 0.004, "half the cap: a longer commit");

	/* the network at the throughput a flush that never idles sets */
	fit.flush_demand /= 2;
	ok(wp_mva_at(&fit, 10, 1500, 0, &out), "a throughput the rest of the loop allows: the flush sets it");
	near(out.tps, 1500, 0.01, "the network at the flush's throughput");
	ok(out.flush_s < 0.004 && out.flush_s > 0, "a shorter commit than at the measured cap");
	ok(wp_mva_at(&fit, 10, 1500, 0.0001, &out), "and with a floor below the flush's demand there");
	near(out.tps, 1500, 0.01, "the same network");
	ok(!wp_mva_at(&fit, 10, 1e6, 0.0001, &out), "more than the loop with the flush at its floor gives: the flush no longer binds");
	net = fit;
	net.flush_demand = 0.0001;
	{
		WpMvaOut	free;

		wp_mva(&net, 10, &free);
		near(out.tps, free.tps, 1e-9, "and the answer is the loop with the flush at its floor");
		near(out.flush_s, free.flush_s, 1e-12, "its commit time too");
		ok(out.flush_s >= 0.0001, "never below the floor");
	}

	/* figures no network gives: a commit longer than the whole cycle */
	ok(!wp_mva_fit(10, 1000, 0.02, &fit), "a commit longer than the cycle is not fitted");
	ok(!wp_mva_fit(10, 0, 0.004, &fit), "no tps, no fit");

	return done_testing();
}

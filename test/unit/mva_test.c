/*
 * test/unit/mva_test.c: the MVA behind predict() (src/sweep/mva.c), outside
 * a server: one client's cycle, the CPUs' bound, and a fitted delay that
 * gives back the throughput it was fitted to.
 */
#include "postgres.h"

#include <math.h>
#include <stdio.h>

#include "sweep/mva.h"

#include "tap.h"

int
main(void)
{
	WpMvaNet	net = {.cpu_demand = 0.001, .cpus = 1, .delay = 0.004};
	WpMvaOut	out;
	WpMvaNet	fit = {.cpu_demand = 0.0005, .cpus = 2};

	/* one client: no queue, its cycle is the sum of its demands */
	wp_mva(&net, 1, &out);
	near(out.tps, 1 / 0.005, 1e-9, "one client: 1 / (cpu + delay)");
	near(out.cpu_s, 0.001, 1e-12, "one client: the CPU takes its demand");

	/* many clients: the CPU bounds the throughput, and they queue there */
	wp_mva(&net, 200, &out);
	near(out.tps, 1000, 0.5, "saturated: 1 / the CPU demand");
	ok(out.cpu_s > 0.1, "saturated: the clients queue at the CPU");

	/* two CPUs serve twice what one does */
	net.delay = 0;
	net.cpus = 2;
	wp_mva(&net, 100, &out);
	near(out.tps, 2000, 1, "CPU-bound: cpus / cpu demand");

	/* a fitted delay gives back the tps it was fitted to */
	ok(wp_mva_fit_delay(&fit, 10, 1000), "a throughput the CPUs allow is fitted");
	wp_mva(&fit, 10, &out);
	near(out.tps, 1000, 0.01, "the fitted network gives the measured tps");
	ok(fit.delay > 0 && fit.delay < 0.01, "with a delay within the cycle");

	/* figures no network gives */
	ok(!wp_mva_fit_delay(&fit, 10, 1e6), "more than the CPUs allow is not fitted");
	near(fit.delay, 0, 0, "and the delay is left at 0");
	ok(!wp_mva_fit_delay(&fit, 10, 0), "no tps, no fit");

	return done_testing();
}

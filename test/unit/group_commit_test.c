/*
 * test/unit/group_commit_test.c: the group commit model behind predict()
 * (src/sweep/group_commit.c), outside a server: a commit's wait in each
 * phase of a flush cycle, one client that always leads, and the loop
 * fitted to a step: it gives back the step (with commit_delay too), a
 * dearer flush slows it and groups more commits, more clients group more,
 * the CPUs bound it, and figures no loop makes are not fitted.
 */
#include "postgres.h"

#include <math.h>
#include <stdio.h>

#include "sweep/group_commit.h"

#include "tap.h"

int
main(void)
{
	WpGcCycle	cycle;
	WpGcStep	step = {.clients = 10, .tps = 2000, .commit_s = 0.003, .cpu_demand = 0.0003,
	.cpus = 2, .delay = 0, .flush_s = 0.002};
	WpGcStep	delayed = {.clients = 10, .tps = 1500, .commit_s = 0.004, .cpu_demand = 0.0003,
	.cpus = 2, .delay = 0.001, .flush_s = 0.002};
	WpGcStep	pair = {.clients = 2, .tps = 400, .commit_s = 0.003, .cpu_demand = 0.0003,
	.cpus = 2, .delay = 0, .flush_s = 0.002};
	WpGcOut		out;
	WpGcOut		dear;
	WpGcOut		more;

	/* commits back together at once: each waits the running flush and its own */
	near(wp_gc_wait(0, 1e6, 10, 0, 0.002, &cycle), 0.004, 1e-9, "no delay, back at once: two flushes");
	near(cycle.busy, 1, 1e-9, "at that load a cycle always runs");
	near(cycle.flushes_per_s, 500, 1e-6, "one cycle after another: 1 / the flush's cost");
	/* arrivals spread over the cycle: half a flush and a whole one */
	near(wp_gc_wait(0.01, 1e6, 10, 0, 0.002, NULL), 0.003, 1e-9, "spread arrivals: a flush and a half");
	/* commit_delay: back 0.5 ms into a 1 ms delay, a commit rides this flush */
	near(wp_gc_wait(0.0005, 1e6, 10, 0.001, 0.002, NULL), 0.00266667, 1e-8,
		 "back in the delay phase: the rest of the delay and the flush (2.5 ms), one sixth spread (3.5 ms)");
	/* an idle loop: a commit leads its own cycle */
	near(wp_gc_wait(1, 0.001, 10, 0.001, 0.002, &cycle), 0.003, 1e-6, "an idle loop: a cycle of its own");
	ok(cycle.busy < 0.01, "and no cycle runs when it arrives");
	/* one client never finds another's cycle: it leads each, one a commit */
	near(wp_gc_wait(0, 100, 1, 0, 0.002, &cycle), 0.002, 0, "one client: a cycle of its own, always");
	near(cycle.flushes_per_s, 100, 1e-9, "one flush a commit");
	near(wp_gc_wait(0, 1000, 10, 0, 0, &cycle), 0, 0, "no cycle, no wait");

	/* the loop gives back the step it was fitted to */
	ok(wp_gc_predict(&step, 10, 0.002, &out), "a consistent step is fitted");
	near(out.tps, 2000, 0.5, "the measured tps");
	near(out.commit_s, 0.003, 1e-6, "the measured commit time");
	ok(wp_gc_predict(&delayed, 10, 0.002, &more), "a step with commit_delay is fitted");
	near(more.tps, 1500, 0.5, "and given back");

	/* a flush twice as dear: fewer tps, a longer wait, more commits a flush */
	ok(wp_gc_predict(&step, 10, 0.004, &dear), "half the cap");
	ok(dear.tps < out.tps && dear.tps > out.tps / 2, "fewer tps, not below half");
	ok(dear.commit_s > out.commit_s, "a longer commit");
	ok(dear.tps / dear.flushes_per_s > out.tps / out.flushes_per_s, "more commits a flush");

	/* more clients: more tps and more commits a flush */
	ok(wp_gc_predict(&step, 20, 0.002, &more), "twice the clients");
	ok(more.tps > out.tps, "more tps");
	ok(more.tps / more.flushes_per_s > out.tps / out.flushes_per_s, "more commits a flush");

	/* two clients to one: it waits its own flush only, one flush a commit */
	(void) wp_gc_predict(&pair, 1, 0.002, &more);
	near(more.tps / more.flushes_per_s, 1, 1e-9, "one client: one commit a flush");

	/* the CPUs bound it */
	(void) wp_gc_predict(&step, 1000, 0.0001, &more);
	ok(more.tps <= 2 / 0.0003 + 1e-6 && more.tps > 0.9 * 2 / 0.0003,
	   "a thousand clients and a cheap flush: at the CPUs' bound, never beyond");

	/* figures no loop makes */
	step.flush_s = 1e-7;
	ok(!wp_gc_predict(&step, 10, 0.002, &out), "a wait far beyond the model's at the step is not fitted");
	ok(out.commit_s > 0 && out.commit_s <= 2 * (2 * 0.002) + 1e-12,
	   "and its scale is held at 2: at most twice the longest wait a cycle makes (two flushes)");
	step.flush_s = 0.002;
	step.commit_s = 0.02;
	ok(!wp_gc_predict(&step, 10, 0.002, &out), "a commit longer than the cycle is not fitted");
	step.commit_s = 0.003;
	step.tps = 1e6;
	ok(!wp_gc_predict(&step, 10, 0.002, &out), "more than the CPUs allow is not fitted");
	step.tps = 0;
	ok(!wp_gc_predict(&step, 10, 0.002, &out), "no tps, no fit");

	return done_testing();
}

/*
 * test/unit/group_commit_test.c: the group commit model behind predict()
 * (src/sweep/group_commit.c), outside a server: a commit's wait in each
 * phase of a flush cycle, and the loop fitted to a step: it gives back the
 * step, a dearer flush slows it and groups more commits, more clients
 * group more, the CPUs bound it, and figures no loop makes are not fitted.
 */
#include "postgres.h"

#include <math.h>
#include <stdio.h>

#include "sweep/group_commit.h"

#include "tap.h"

int
main(void)
{
	double		busy;
	WpGcStep	step = {.clients = 10, .tps = 2000, .commit_s = 0.003, .cpu_demand = 0.0003,
	.cpus = 2, .delay = 0, .flush_s = 0.002};
	WpGcOut		out;
	WpGcOut		dear;
	WpGcOut		more;

	/* commits back together at once: each waits the running flush and its own */
	near(wp_gc_wait(0, 1e6, 0, 0.002, &busy), 0.004, 1e-9, "no delay, back at once: two flushes");
	near(busy, 1, 1e-9, "at that load a cycle always runs");
	/* arrivals spread over the cycle: half a flush and a whole one */
	near(wp_gc_wait(0.01, 1e6, 0, 0.002, NULL), 0.003, 1e-9, "spread arrivals: a flush and a half");
	/* commit_delay: back within the delay, a commit rides this flush */
	near(wp_gc_wait(0.0005, 1e6, 0.001, 0.002, NULL),
		 (0.0005 / 0.003) * ((0.001 * 0.0025 + 0.002 * 0.004) / 0.003) + (1 - 0.0005 / 0.003) * 0.0025,
		 1e-12, "back in the delay phase: the rest of the delay and the flush, weighed with the spread");
	/* an idle loop: a commit leads its own cycle */
	near(wp_gc_wait(1, 0.001, 0.001, 0.002, &busy), 0.003, 1e-6, "an idle loop: a cycle of its own");
	ok(busy < 0.01, "and no cycle runs when it arrives");
	near(wp_gc_wait(0, 1000, 0, 0, &busy), 0, 0, "no cycle, no wait");

	/* the loop gives back the step it was fitted to */
	ok(wp_gc_predict(&step, 10, 0.002, &out), "a consistent step is fitted");
	near(out.tps, 2000, 0.5, "the measured tps");
	near(out.commit_s, 0.003, 1e-6, "the measured commit time");
	ok(out.flushes_per_s > 0 && out.tps / out.flushes_per_s > 1, "commits share flushes");

	/* a flush twice as dear: fewer tps, a longer wait, more commits a flush */
	ok(wp_gc_predict(&step, 10, 0.004, &dear), "half the cap");
	ok(dear.tps < out.tps && dear.tps > out.tps / 2, "fewer tps, not below half");
	ok(dear.commit_s > out.commit_s, "a longer commit");
	ok(dear.tps / dear.flushes_per_s > out.tps / out.flushes_per_s, "more commits a flush");

	/* more clients: more tps and more commits a flush */
	ok(wp_gc_predict(&step, 20, 0.002, &more), "twice the clients");
	ok(more.tps > out.tps, "more tps");
	ok(more.tps / more.flushes_per_s > out.tps / out.flushes_per_s, "more commits a flush");

	/* the CPUs bound it */
	(void) wp_gc_predict(&step, 1000, 0.0001, &more);
	ok(more.tps <= 2 / 0.0003 + 1e-6 && more.tps > 0.9 * 2 / 0.0003,
	   "a thousand clients and a cheap flush: at the CPUs' bound, never beyond");

	/* figures no loop makes */
	step.commit_s = 0.02;
	ok(!wp_gc_predict(&step, 10, 0.002, &out), "a commit longer than the cycle is not fitted");
	step.commit_s = 0.003;
	step.tps = 1e6;
	ok(!wp_gc_predict(&step, 10, 0.002, &out), "more than the CPUs allow is not fitted");
	step.tps = 0;
	ok(!wp_gc_predict(&step, 10, 0.002, &out), "no tps, no fit");

	return done_testing();
}

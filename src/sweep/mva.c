/*-------------------------------------------------------------------------
 *
 * mva.c
 *		Mean-value analysis (Reiser and Lavenberg, 1980) of the closed loop
 *		a sweep's clients make through the server's CPUs, for predict():
 *		the throughput of n clients through several CPUs (by Seidmann's
 *		approximation: a queue of demand D / c and a delay of D (c - 1) / c)
 *		and a delay (everything else, the commit's wait for its WAL flush
 *		among it: group_commit.c sets that part); and the delay with which
 *		n clients give what a step measured.  Pure but for its interrupt
 *		checks (a caller sets the clients): test/unit exercises it outside a
 *		server.
 *
 * IDENTIFICATION
 *	  src/sweep/mva.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "miscadmin.h"

#include "sweep/mva.h"

#define WP_MVA_STEPS 60			/* bisection steps of a fit */

/* Exact MVA for the CPUs' queue, plus the delays. */
void
wp_mva(const WpMvaNet *net, int n, WpMvaOut *out)
{
	double		cpu_q = 0;
	double		cpus = Max(net->cpus, 1);

	memset(out, 0, sizeof(WpMvaOut));
	for (int i = 1; i <= n; i++)
	{
		double		cpu_r = net->cpu_demand / cpus * (1 + cpu_q);
		double		cycle = cpu_r + net->cpu_demand * (cpus - 1) / cpus + net->delay;

		/* n is the caller's (up to 100000, in a prediction's hundreds of runs) */
		if ((i & 1023) == 0)
			CHECK_FOR_INTERRUPTS();

		out->tps = cycle > 0 ? i / cycle : 0;
		out->cpu_s = cpu_r + net->cpu_demand * (cpus - 1) / cpus;
		cpu_q = out->tps * cpu_r;
	}
}

/*
 * net->delay set to the delay with which n clients give `tps` through the
 * network's CPUs (bisection: the throughput falls as the delay grows).
 * false when the CPUs alone give no more than `tps` (the delay is left at
 * 0) or the figures are not a loop's.
 */
bool
wp_mva_fit_delay(WpMvaNet *net, int n, double tps)
{
	double		lo = 0;
	double		hi;
	WpMvaOut	out;

	net->delay = 0;
	if (n < 1 || !(tps > 0))
		return false;
	wp_mva(net, n, &out);
	if (out.tps <= tps)
		return false;
	hi = n / tps;
	for (int i = 0; i < WP_MVA_STEPS; i++)
	{
		net->delay = (lo + hi) / 2;
		wp_mva(net, n, &out);
		if (out.tps > tps)
			lo = net->delay;
		else
			hi = net->delay;
	}
	net->delay = (lo + hi) / 2;
	return true;
}

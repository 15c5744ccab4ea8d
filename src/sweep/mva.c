/*-------------------------------------------------------------------------
 *
 * mva.c
 *		Mean-value analysis (Reiser and Lavenberg, 1980) of the closed loop
 *		a sweep's clients make, for predict(): the throughput of n clients
 *		through the server's CPUs (several servers, by Seidmann's
 *		approximation: a queue of demand D / c and a delay of D (c - 1) / c),
 *		the WAL flush (one server whose demand per commit is a flush's time
 *		over the commits it carries) and a delay (everything else); and the
 *		flush demand and delay that make the network give what a step
 *		measured; and the network at a throughput the flush sets (a flush
 *		that never idles: the disk bound).  Pure but for its interrupt
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

/* Exact MVA for the CPUs' queue and the flush's, plus the delays. */
void
wp_mva(const WpMvaNet *net, int n, WpMvaOut *out)
{
	double		cpu_q = 0;
	double		flush_q = 0;
	double		cpus = Max(net->cpus, 1);

	memset(out, 0, sizeof(WpMvaOut));
	for (int i = 1; i <= n; i++)
	{
		double		cpu_r = net->cpu_demand / cpus * (1 + cpu_q);
		double		flush_r = net->flush_demand * (1 + flush_q);
		double		cycle = cpu_r + net->cpu_demand * (cpus - 1) / cpus + flush_r + net->delay;

		/* n is the caller's (up to 100000, in a fit's thousands of runs) */
		if ((i & 1023) == 0)
			CHECK_FOR_INTERRUPTS();

		out->tps = cycle > 0 ? i / cycle : 0;
		out->flush_s = flush_r;
		out->cpu_s = cpu_r + net->cpu_demand * (cpus - 1) / cpus;
		cpu_q = out->tps * cpu_r;
		flush_q = out->tps * flush_r;
	}
}

/*
 * Bisection on one of the network's demands: *demand, a field of *net, set
 * to the value in [lo, hi] at which the network gives `tps` (its throughput
 * falls as the demand grows), and `out` the network with it.  When the
 * network at `lo` gives no more than `tps` (or the range is empty), *demand
 * is left at `lo`, `out` is the network there, and false is returned.
 */
static bool
wp_mva_solve(WpMvaNet *net, double *demand, int n, double tps,
			 double lo, double hi, WpMvaOut *out)
{
	*demand = lo;
	wp_mva(net, n, out);
	if (!(tps > 0) || out->tps <= tps || hi <= lo)
		return false;
	for (int i = 0; i < WP_MVA_STEPS; i++)
	{
		*demand = (lo + hi) / 2;
		wp_mva(net, n, out);
		if (out->tps > tps)
			lo = *demand;
		else
			hi = *demand;
	}
	*demand = (lo + hi) / 2;
	wp_mva(net, n, out);
	return true;
}

/*
 * net->delay set to the delay that gives `tps` with the network's other
 * demands (0: none does), and `out` the network with it.
 */
static void
wp_mva_fit_delay(int n, double tps, WpMvaNet *net, WpMvaOut *out)
{
	wp_mva_solve(net, &net->delay, n, tps, 0, n / tps, out);
}

/*
 * The flush demand and the delay with which n clients get what a step
 * measured: `tps`, and `commit_s` at the flush (a commit's time).  The CPU
 * demand and the CPUs are the network's already.  false when no flush
 * demand gives both (the measured figures leave no room for the flush, or
 * the CPUs alone are slower than measured): the nearest is set.
 */
bool
wp_mva_fit(int n, double tps, double commit_s, WpMvaNet *net)
{
	double		lo = 0;
	double		hi = tps > 0 ? 1 / tps : 0;
	WpMvaOut	out;

	if (n < 1 || !(tps > 0) || !(commit_s > 0))
		return false;
	for (int i = 0; i < WP_MVA_STEPS; i++)
	{
		net->flush_demand = (lo + hi) / 2;
		wp_mva_fit_delay(n, tps, net, &out);
		if (out.flush_s < commit_s)
			lo = net->flush_demand;
		else
			hi = net->flush_demand;
	}
	net->flush_demand = (lo + hi) / 2;
	wp_mva_fit_delay(n, tps, net, &out);
	return fabs(out.tps - tps) <= 0.01 * tps && fabs(out.flush_s - commit_s) <= 0.01 * commit_s;
}

/*
 * The network when the flush sets its throughput: `tps`, as a flush that
 * never idles gives it (a flush every period, each carrying the commits
 * measured), with the other demands kept.  The flush demand that gives
 * `tps` is found by bisection, not below `floor_demand` (what a flush takes
 * a commit without the cap), and `out` is the network with it.  When the
 * network at that floor gives no more than `tps`, the flush no longer binds
 * there: `out` is the network at the floor, and false is returned.
 */
bool
wp_mva_at(const WpMvaNet *net, int n, double tps, double floor_demand, WpMvaOut *out)
{
	WpMvaNet	at = *net;

	return wp_mva_solve(&at, &at.flush_demand, n, tps, Max(floor_demand, 0),
						tps > 0 ? 1 / tps : 0, out);
}

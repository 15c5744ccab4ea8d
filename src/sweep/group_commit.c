/*-------------------------------------------------------------------------
 *
 * group_commit.c
 *		A commit's wait for the WAL flush that carries it under group
 *		commit, and the closed loop a sweep's clients make with it: what
 *		predict() runs at another cap and number of clients.  Pure but for
 *		the interrupt checks of mva.c: test/unit exercises it outside a
 *		server.
 *
 * PostgreSQL's XLogFlush makes flushes cycles: the committer that takes
 * WALWriteLock leads, sleeps commit_delay (when commit_siblings others are
 * in a transaction), then writes and flushes the WAL inserted by then; the
 * others wait for the lock and leave when their commit is flushed.  A cycle
 * of pb = delay + flush seconds (the flush's cost: on the paced disk its
 * write IOs' share of the cap) has two phases, and a commit arriving t
 * seconds into it waits:
 *
 *	 in the delay phase (t < delay): delay - t + flush, riding this flush;
 *	 in the flush phase: pb - t to its end, then a whole cycle of its own;
 *	 with no cycle running: a cycle it leads, pb.
 *
 * Where in the cycle commits arrive depends on the rest of their loop, z
 * (a transaction's time outside its commit's wait): when z is long against
 * the cycle, anywhere (the mean over the cycle); when it is short, the
 * commits a flush released come back together, z into the next cycle; in
 * between, the two are weighed by z / pb.  A cycle another client began
 * runs when a commit arrives with a probability u: a cycle is followed by
 * a gap when no other commit arrived during it (e^(-x pb), as if the other
 * clients' commits came as a Poisson stream at their share x of the loop's
 * throughput), of 1 / x on average; one client alone always leads.
 *
 * The loop (wp_gc_predict): the CPUs as mva.c's queue, the rest of the
 * loop a delay fitted to the step's tps, and the commit's wait as above,
 * scaled by what the step measured over what the model gives there (kappa:
 * what the cycle's phases leave out, such as the WAL's write and the
 * wake-ups; held within a factor of 2, the step then not fitted).  At
 * another flush cost and number of clients, the wait and the throughput
 * are found together by a damped fixed-point iteration.  The cycles a
 * second: the share of the time one runs (a cycle follows another unless no
 * commit came during it) over a cycle, never fewer than the commits that
 * find none running lead.  docs/reference/predict.md derives it and says
 * how far it holds.
 *
 * IDENTIFICATION
 *	  src/sweep/group_commit.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "miscadmin.h"

#include "sweep/group_commit.h"
#include "sweep/mva.h"

#define WP_GC_STEPS 500			/* fixed-point iterations at most */
#define WP_GC_KAPPA_MAX 2.0		/* the measured wait over the model's, at most */

/*
 * A commit's mean wait for its flush, with z the rest of its loop, tps the
 * loop's throughput with `clients` clients, `delay` commit_delay in effect
 * and `flush_s` a flush's cost (seconds); *cycle (when not NULL) set to
 * the share of the time a cycle runs and the cycles a second.
 */
double
wp_gc_wait(double z, double tps, int clients, double delay, double flush_s, WpGcCycle *cycle)
{
	double		pb = delay + flush_s;
	double		others = clients > 1 ? tps * (clients - 1) / clients : 0;
	double		spread;
	double		wait;
	double		u;
	double		running;

	if (cycle)
		memset(cycle, 0, sizeof(WpGcCycle));
	if (!(pb > 0))
		return 0;
	/* arrivals anywhere in the cycle */
	spread = (delay * (delay / 2 + flush_s) + flush_s * (flush_s / 2 + pb)) / pb;
	if (z < pb)
	{
		double		t = Max(z, 0);
		double		together = t < delay ? delay - t + flush_s : 2 * pb - t;

		wait = (t / pb) * spread + (1 - t / pb) * together;
	}
	else
		wait = spread;
	/* a cycle another client's commit began runs when it arrives, or it leads one */
	u = others > 0 ? pb / (pb + exp(-others * pb) / others) : 0;
	if (cycle)
	{
		/*
		 * the share of the time a cycle runs: one follows another unless no
		 * commit came during it; cycles a second: that share over a cycle,
		 * never fewer than the commits that find none running lead, never
		 * more than the commits
		 */
		running = tps > 0 ? pb / (pb + exp(-tps * pb) / tps) : 0;
		cycle->busy = running;
		cycle->flushes_per_s = Min(tps, Max(tps * (1 - u), running / pb));
	}
	return u * wait + (1 - u) * pb;
}

/*
 * The loop of `step` with `clients` clients and a flush costing `flush_s`:
 * *out.  Returns out->fitted: the step's figures fit the model (the CPUs
 * alone faster than measured, a rest of the loop not below 0, the wait
 * measured within a factor of WP_GC_KAPPA_MAX of the model's: beyond, kappa
 * is held there) and the iteration settled.
 */
bool
wp_gc_predict(const WpGcStep *step, int clients, double flush_s, WpGcOut *out)
{
	WpMvaNet	net = {.cpu_demand = step->cpu_demand, .cpus = step->cpus};
	WpMvaOut	m;
	WpGcCycle	cycle;
	double		z0;
	double		other;
	double		kappa = 1;
	double		w0;
	double		wait;
	bool		fitted;
	bool		settled = false;

	memset(out, 0, sizeof(WpGcOut));
	if (step->clients < 1 || clients < 1 || !(step->tps > 0) || !(step->commit_s > 0))
		return false;
	/* the rest of the loop: the fitted delay less the commit's wait */
	fitted = wp_mva_fit_delay(&net, step->clients, step->tps);
	other = net.delay - step->commit_s;
	if (other < 0)
	{
		fitted = false;
		other = 0;
	}
	z0 = step->clients / step->tps - step->commit_s;
	w0 = wp_gc_wait(z0, step->tps, step->clients, step->delay, step->flush_s, NULL);
	if (w0 > 0)
		kappa = step->commit_s / w0;
	if (!(kappa >= 1 / WP_GC_KAPPA_MAX && kappa <= WP_GC_KAPPA_MAX))
	{
		fitted = false;
		kappa = kappa > 1 ? WP_GC_KAPPA_MAX : 1 / WP_GC_KAPPA_MAX;
	}

	wait = step->commit_s;
	for (int i = 0; i < WP_GC_STEPS; i++)
	{
		double		next;

		net.delay = other + wait;
		wp_mva(&net, clients, &m);
		next = kappa * wp_gc_wait(other + m.cpu_s, m.tps, clients, step->delay, flush_s, NULL);
		if (fabs(next - wait) <= 1e-6 * wait + 1e-12)
		{
			wait = next;
			settled = true;
			break;
		}
		wait = (wait + next) / 2;
	}
	net.delay = other + wait;
	wp_mva(&net, clients, &m);
	out->tps = m.tps;
	out->cpu_s = m.cpu_s;
	out->commit_s = wait;
	(void) wp_gc_wait(other + m.cpu_s, m.tps, clients, step->delay, flush_s, &cycle);
	out->busy = cycle.busy;
	out->flushes_per_s = cycle.flushes_per_s;
	out->fitted = fitted && settled;
	return out->fitted;
}

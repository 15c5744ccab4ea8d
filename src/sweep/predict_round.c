/*-------------------------------------------------------------------------
 *
 * predict_round.c
 *		One round's prediction for a value of a sweep at another cap and
 *		number of clients: the flush's cost there, the group commit loop
 *		(group_commit.c) run at it, and what follows (tps, the commits a
 *		flush carries, a commit's time, the latency, write IOPS, the CPUs'
 *		share, the disk's), with the other bound where the model moves the
 *		commits a flush carries.  Pure but for the interrupt checks of
 *		mva.c: test/unit exercises it outside a server; api/predict.c checks
 *		what it is given and calls it for _predict
 *		(sql/objects/predict/predict.sql), once a round.
 *
 * A flush's cost at cap c1: the disk's own time, and the rest (its write
 * IOs' share of the cap) scaled by the caps; never less than the cap allows
 * a cycle of its k write IOs (k / c1, the delay part of it), less what the
 * measured cycle fell short of that at the measured cap: under the throttle
 * a flush may have cost the disk's own time there, the cap's tokens
 * unspent, and spend them all at a lower cap.  Above the measured cap that
 * cost falls toward the disk's own time, which a sweep whose every flush
 * waited for a bound disk did not see: no prediction then.
 *
 * The other bound: the commits a flush carries held as measured (at most one
 * a client), a flush every measured period at its new cost, within what
 * the CPUs allow.  More clients carry more (the model grows them: the
 * interval reaches down to it); with fewer clients or at a higher cap the
 * model lowers them more than they fell (bench/predict: the interval
 * reaches up to it).  docs/reference/predict.md derives each part.
 *
 * Every step follows SQL's float8 arithmetic in its order, so that the
 * figures are those the PL/pgSQL version gave; a NULL of it is NAN here.
 *
 * IDENTIFICATION
 *	  src/sweep/predict_round.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "sweep/predict_round.h"

/* least() (greatest: false) or greatest() of SQL: a NULL (NAN) is skipped */
static double
wp_pr_pick(double a, double b, bool greatest)
{
	if (isnan(a))
		return b;
	if (isnan(b))
		return a;
	return (greatest ? a >= b : a <= b) ? a : b;
}

#define wp_pr_least(a, b) wp_pr_pick((a), (b), false)
#define wp_pr_greatest(a, b) wp_pr_pick((a), (b), true)

/* x / y, or NULL (NAN) where y is 0: SQL's x / nullif(y, 0) */
static double
wp_pr_div(double x, double y)
{
	return y != 0 ? x / y : NAN;
}

/*
 * The model's inputs for round `r` at `at`, into *fit: the loop to fit, a
 * flush's cost there, and the round's write IOs and commits a flush.
 * Returns why the round is not predicted, or NULL.
 * at->cap0 and at->c1 above 0 unless refused (the caller checks them after).
 */
const char *
wp_pr_begin(const WpPrRound *r, const WpPrAt *at, WpPrFit *fit)
{
	WpGcStep   *step = &fit->step;
	double		d = (r->server_cpu_s + r->client_cpu_s) / r->transactions;
	double		k = r->write_iops / r->wal_fsyncs_per_s;
	double		f0 = r->fsync_avg_ms / 1000;
	double		own = isnan(at->own) ? 0 : at->own;
	bool		bound;

	/*
	 * the disk bound where its write IOPS were at 90% of the cap or more; on
	 * the paced disk also where a WAL flush was in progress 90% of the time
	 * or more (each flush costs its share of the cap there, and the data's
	 * writes and a flush's own floor keep its write IOPS under the cap while
	 * the flush never idles).  9 cap0 / 10: SQL's 0.9 * cap0, exact, then
	 * rounded once
	 */
	bound = r->write_iops >= (9.0 * at->cap0) / 10.0
		|| (r->paced && r->wal_fsyncs_per_s * r->fsync_avg_ms / 1000 >= 0.9);
	memset(fit, 0, sizeof(WpPrFit));
	fit->f1 = NAN;
	fit->k = k;
	fit->g0 = r->commits / r->wal_fsyncs;
	if (at->c1 > at->cap0 && isnan(at->own) && bound)
		return "above the measured cap a flush's cost falls toward the disk's own flush time, and every flush of the sweep waited for the cap: that time was not seen";
	if (at->cap0 == 0 || at->c1 == 0)
		return NULL;			/* the caller refuses it */
	fit->f1 = wp_pr_greatest(own + wp_pr_greatest(f0 - own, 0) * at->cap0 / at->c1,
							 k / at->c1 - at->delay_s - wp_pr_greatest(k / at->cap0 - at->delay_s - f0, 0));
	step->clients = r->clients;
	step->tps = r->tps;
	step->commit_s = r->commit_avg_ms / 1000;
	step->cpu_demand = d;
	step->cpus = r->cpus;
	step->delay = at->delay_s;
	step->flush_s = f0;
	return NULL;
}

/*
 * The round's prediction: the loop of fit->step run with at->n1 clients and a
 * flush costing fit->f1 (wp_pr_begin's), and what follows from it, into *out.
 */
void
wp_pr_finish(const WpPrRound *r, const WpPrAt *at, const WpPrFit *fit, WpPrOut *out)
{
	WpGcOut		m;
	double		d = fit->step.cpu_demand;
	double		g0 = fit->g0;
	double		k = fit->k;
	double		f0 = fit->step.flush_s;
	double		f1 = fit->f1;
	double		period1;		/* the measured flush period, its flush's cost changed to f1 */

	(void) wp_gc_predict(&fit->step, at->n1, f1, &m);
	out->fitted = m.fitted;
	out->tps = m.tps;
	period1 = wp_pr_greatest(1 / r->wal_fsyncs_per_s - f0, 0) + f1;
	out->tps_alt = NAN;
	if (at->n1 > at->n0)
		out->tps_alt = wp_pr_least(m.tps, wp_pr_div(g0, period1));
	else if (at->n1 < at->n0 || at->c1 > at->cap0)
		out->tps_alt = wp_pr_greatest(m.tps,
									  wp_pr_least(d > 0 ? r->cpus / d : NAN,
												  wp_pr_div(wp_pr_least(g0, at->n1), period1)));
	out->g = wp_pr_greatest(1, wp_pr_div(m.tps, m.flushes_per_s));
	out->write_iops = k * wp_pr_least(m.flushes_per_s, m.tps);
	/* the share of the time the disk flushes: a cycle running, its flush part */
	out->flush_busy = wp_pr_div(m.busy * f1, at->delay_s + f1);
	out->commit_ms = m.commit_s * 1000;
	out->latency_ms = wp_pr_div(at->n1, out->tps) * 1000;
	out->cpu_share = out->tps * d / r->cpus;
}

/*-------------------------------------------------------------------------
 *
 * plan_notice.c
 *		As a sweep starts: one NOTICE with its plan (steps, the time its
 *		load takes, how to stop it), and a WARNING for what makes its
 *		intervals too wide to decide anything.
 *
 * IDENTIFICATION
 *	  src/api/plan_notice.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "storage/proc.h"
#include "utils/guc.h"

#include "api/plan_notice.h"
#include "sweep/golden.h"
#include "system/paced_disk.h"

/* A span of time as a DBA reads it: "2.5 s", "45 s", "7 min 30 s", "2 h 5 min". */
static char *
wp_span(double s)
{
	long		t = lrint(s);

	if (s < 60)
		return s == floor(s) ? psprintf("%ld s", t) : psprintf("%.1f s", s);
	if (t < 3600)
		return t % 60 ? psprintf("%ld min %ld s", t / 60, t % 60) : psprintf("%ld min", t / 60);
	return psprintf("%ld h %ld min", t / 3600, (t % 3600) / 60);
}

/*
 * The disk the cap stands for, and why: the paced disk, or the cgroup's
 * throttle (asked for, or the server lacks the pacer: then how to add it).
 */
static void
wp_disk_notice(const WpSweepRequest *req)
{
	bool		swept = strcmp(req->setting, "disk") == 0;
	const char *cap = strcmp(req->setting, "iops_cap") == 0 ? "each step's cap" :
		psprintf("the cap of %d write IOPS", req->iops_cap);

	if (!(req->iops_cap > 0 || strcmp(req->setting, "iops_cap") == 0))
		return;
	if (swept)
		ereport(NOTICE,
				(errmsg("%s runs on each disk swept: the paced disk (every write IO and flush of pg_wal's filesystem costs its share of the cap, in arrival order, as a volume's) and the cgroup's throttle (a 100 ms slice's IOs at once, then a stall)",
						cap),
				 errdetail("best says whether its answer holds on both.")));
	else if (req->disk == WP_DISK_PACED)
		ereport(NOTICE,
				(errmsg("%s stands for the paced disk%s: every write IO and flush of pg_wal's filesystem costs its share of the cap, in arrival order, as a volume's",
						cap, req->disk_defaulted ? " (the server was started with walpressure_pacer.so)" : ""),
				 errdetail("A flush of up to 128 kB costs 2 IOs%s.",
						   req->flush_floor_us > 0 ? psprintf(", and at least %.3g ms", req->flush_floor_us / 1000.0) : "")));
	else
		ereport(NOTICE,
				(errmsg("%s is the cgroup's throttle%s: it lets a 100 ms slice's IOs through at once and stalls the rest to the slice's end, a cliff no volume has",
						cap, req->disk_defaulted ? " (the server was started without walpressure_pacer.so)" : " (disk => 'throttle')"),
				 errdetail("Read the answer as the throttle's, the method of the articles walpressure reproduces; a gain from grouping commits there may not hold on a volume."),
				 req->disk_defaulted ? errhint("For a disk where every flush costs its share: %s", wp_paced_hint()) :
				 errhint("disk => 'paced' runs the same cap on the paced disk.")));
}

/*
 * A search's plan: what it searches, how a round is made and how the
 * search moves and stops, and the steps it can take.
 */
static void
wp_search_notice(const WpSweepRequest *req, bool wait, int64 id)
{
	double		step_s = req->warmup_s + req->duration_s;
	int			first = wp_golden_first_steps(req);
	int			most = wp_golden_most_steps(req);
	bool		base_in = false;

	for (int i = 0; i < req->search_n; i++)
		base_in |= req->search_pos[i] == 0;
	ereport(NOTICE,
			(errmsg("sweep " INT64_FORMAT " searches %s in [%s, %s] by %s (%d values) for the most tps: golden section, a pair of values at a time, each pair's first round with the current value %s as the baseline: %d to %d steps (each %s, %s of warm-up, %s measured): %s to %s of load",
					id, req->setting, req->search_low, req->search_high, req->search_resolution,
					req->search_n, req->vals[0], first, most,
					req->checkpoint ? "a CHECKPOINT" : "without a CHECKPOINT", wp_span(req->warmup_s),
					wp_span(req->duration_s), wp_span(first * step_s), wp_span(most * step_s)),
			 errdetail("A pair gets %d rounds, and up to %d while the rule (effects(), paired by round) cannot order the two: a third at least, then while a few more would decide; then the bracket around the peak ends at the slower one (0.618 of it is left), and the next pair is the faster one and its mirror; a pair still undecided after its rounds goes by the point estimate, and says so. It stops when no value is left between (the resolution), when the pair is the same within ±%s%%, when no round measured both, or %s. It finds the better of its last pair. search_rounds records each round and why.%s",
					   req->repeats, req->max_repeats,
					   GetConfigOption("walpressure.equivalence_margin", false, false),
					   req->budget_s > 0 ? psprintf("when the next round would pass the budget of %s", wp_span(req->budget_s)) :
					   psprintf("when the next round would pass its %d steps (as many as the range has values, at least two pairs' fewest rounds; budget => an interval sets a time instead)", req->search_max_steps),
					   base_in ? "" : psprintf(" The current value %s is outside the range: each pair's first round measures it all the same, as what the values found are compared with.", req->vals[0])),
			 wait ? errhint("Cancel it with Ctrl-C here, or with SELECT walpressure.cancel_sweep(" INT64_FORMAT "); from another session. walpressure.progress shows each step.", id) :
			 errhint("Cancel it with SELECT walpressure.cancel_sweep(" INT64_FORMAT "); walpressure.progress shows each step.", id)));
	if (wait && StatementTimeout > 0 && StatementTimeout / 1000.0 < first * step_s)
		ereport(WARNING,
				(errmsg("statement_timeout (%s) is shorter than the search's first pair (%s at least): the call will be cancelled, and the sweep with it",
						wp_span(StatementTimeout / 1000.0), wp_span(first * step_s)),
				 errhint("SET statement_timeout = 0 in this session first, or run the sweep with wait => false.")));
}

/*
 * As sweep `id` starts (run_sweep.c, once the coordinator has recorded it): one
 * NOTICE with its plan (steps, the time its load takes, how to stop it),
 * and a WARNING for what makes its intervals too wide to decide anything.
 */
void
wp_plan_notice(const WpSweepRequest *req, bool wait, int64 id, const char *threshold)
{
	int			steps = req->nvals * req->repeats;

	char	   *more = NULL;
	double		step_s = req->warmup_s + req->duration_s;

	wp_disk_notice(req);
	if (req->search != WP_SEARCH_NONE)
	{
		wp_search_notice(req, wait, id);
		return;
	}

	/* repeats => 'auto' or a budget: the rounds to come */
	if (req->auto_repeats)
		more = psprintf("Then one more round at a time until the value with the most tps is decided against every other, or every value that cannot be told from it is the same within ±%s%% (walpressure.equivalence_margin), or %s.",
						GetConfigOption("walpressure.equivalence_margin", false, false),
						req->budget_s > 0 ?
						psprintf("the next round would pass the budget of %s (at most %d rounds)",
								 wp_span(req->budget_s), req->max_repeats) :
						psprintf("%d rounds have run", req->max_repeats));
	else if (req->repeats == 1)
		more = pstrdup("One round: each value's figures have no interval, and no value can be called faster, slower or the same; repeats => 3 or more, or 'auto', decides.");
	ereport(NOTICE,
			(errmsg("sweep " INT64_FORMAT " of %s: %d value%s x %d %s%s = %d step%s (each %s, %s of warm-up, %s measured): %s of load at least",
					id, req->setting, req->nvals, req->nvals > 1 ? "s" : "", req->repeats,
					req->auto_repeats ? "round" : "repeat", req->repeats > 1 ? "s" : "",
					steps, steps > 1 ? "s" : "",
					req->checkpoint ? "a CHECKPOINT" : "without a CHECKPOINT", wp_span(req->warmup_s),
					wp_span(req->duration_s), wp_span(steps * (req->warmup_s + req->duration_s))),
			 more ? errdetail("%s", more) : 0,
			 wait ? errhint("Cancel it with Ctrl-C here, or with SELECT walpressure.cancel_sweep(" INT64_FORMAT "); from another session. walpressure.progress shows each step.", id) :
			 errhint("Cancel it with SELECT walpressure.cancel_sweep(" INT64_FORMAT "); walpressure.progress shows each step.", id)));
	/*
	 * the group-commit threshold, from the flush cost the coordinator
	 * measured, for a caller who waits (else it is in sweeps.threshold)
	 */
	if (wait && threshold != NULL && threshold[0] != '\0')
		ereport(NOTICE,
				(errmsg("%s", threshold),
				 errdetail("lambda* = 2/F0 is the threshold of \"Group Commit Self-Clocks\" (arXiv 2606.18187), F0 the time one WAL flush takes; walpressure.best says after the sweep where the measured optimum fell against it.")));
	if (req->repeats == 2)
		ereport(WARNING,
				(errmsg("2 repeats give very wide intervals: a 95%% interval from two values is 12.7 standard errors wide on each side"),
				 errdetail("Student's t with 1 degree of freedom is 12.7; with 3 repeats it is 4.3, with 5 it is 2.8."),
				 errhint("Use repeats => 3 or more.")));

	/* a budget that cannot hold the three rounds a decision needs */
	if (req->auto_repeats && req->budget_s > 0 && req->budget_s < 3 * req->nvals * step_s)
		ereport(WARNING,
				(errmsg("a budget of %s holds fewer than 3 rounds: one round of %d value%s takes %s of load at least",
						wp_span(req->budget_s), req->nvals, req->nvals > 1 ? "s" : "",
						wp_span(req->nvals * step_s)),
				 errdetail("The sweep runs 3 rounds all the same, the fewest that give an interval, and stops there."),
				 errhint("Give a budget of %s or more, or shorter windows.",
						 wp_span(3 * req->nvals * step_s))));

	/* a waiting call that statement_timeout would cancel midway */
	if (wait && StatementTimeout > 0 && StatementTimeout / 1000.0 < steps * step_s)
		ereport(WARNING,
				(errmsg("statement_timeout (%s) is shorter than the sweep's load (%s at least): the call will be cancelled, and the sweep with it",
						wp_span(StatementTimeout / 1000.0), wp_span(steps * step_s)),
				 errhint("SET statement_timeout = 0 in this session first, or run the sweep with wait => false.")));
}


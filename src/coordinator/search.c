/*-------------------------------------------------------------------------
 *
 * search.c
 *		A search over a range (run_sweep's range =>): the values to run
 *		chosen as the rounds come in, by golden section (sweep/golden.c),
 *		each pair decided by the one rule (effects(), paired by round), and
 *		why each round ran recorded as it goes (search_rows.c).
 *
 * Every round runs the baseline (the current value) and the pair being
 * compared, so that what drifts from round to round weighs on all three
 * alike, and results and best read each value against the baseline as
 * they read any sweep.  A pair gets the fewest rounds the request asks
 * (repeats, 2 at least: one round has no interval), then more while the
 * rule cannot order the two: a third at least (the spread of two rounds,
 * with one degree of freedom, says little), then while it says a few more
 * rounds would (rounds_needed within the most, twice the fewest).  Then:
 *
 *	- one of the pair is faster: the bracket around the peak ends at the
 *	  other one, and the next pair is the kept value and its mirror;
 *	- the two are the same within the margin, or cannot be told apart in
 *	  the rounds a pair may have: the curve is flat there, within what the
 *	  rounds can see, and the search stops (narrowing further would follow
 *	  the noise);
 *	- no value is left inside the bracket: the search is as fine as the
 *	  resolution, and stops;
 *	- the next round would pass the budget: it stops.
 *
 * What it found is what best starts from (_top: the most tps against the
 * baseline in the same rounds), recorded with why it stopped.
 *
 * IDENTIFICATION
 *	  src/coordinator/search.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/timestamp.h"

#include "coordinator/decision.h"
#include "coordinator/one_step.h"
#include "coordinator/search.h"
#include "coordinator/search_rows.h"
#include "job/slot.h"
#include "sweep/golden.h"

/* Where a search is. */
typedef struct WpSearch
{
	const WpSweepRequest *req;
	WpGolden	g;
	int			pair;			/* the pair's number, from 1 */
	int			pair_rounds;	/* rounds the pair has had */
	char	   *why;			/* why its next round runs */
	char	   *stop;			/* why the search stopped, NULL: it goes on */
} WpSearch;

/* The i-th value of the range, as text. */
static const char *
wp_lat(const WpSearch *s, int i)
{
	return s->req->vals[s->req->search_pos[i]];
}

/* The values the peak is searched in, for the record. */
static void
wp_bracket(const WpSearch *s, const char **low, const char **high)
{
	*low = wp_lat(s, s->g.a + 1);
	*high = wp_lat(s, s->g.b - 1);
}

/* The rule's words on the pair, c against d. */
static char *
wp_verdict_text(const WpSearch *s, const WpPairVerdict *v)
{
	if (v->detail == NULL)
		return psprintf("no round measured both %s and %s", wp_lat(s, s->g.c), wp_lat(s, s->g.d));
	return psprintf("%s against %s: %s", wp_lat(s, s->g.c), wp_lat(s, s->g.d), v->detail);
}

/*
 * One of the pair is faster: move the bracket and say why; the search
 * stops when no value is left to try.
 */
static char *
wp_search_move(WpSearch *s, bool low_better)
{
	int			keep = low_better ? s->g.c : s->g.d;
	const char *winner = wp_lat(s, keep);
	const char *loser = wp_lat(s, low_better ? s->g.d : s->g.c);
	char	   *moved;
	const char *low,
			   *high;

	moved = psprintf("%s is faster than %s, so the peak is not %s %s (one peak)", winner, loser,
					 low_better ? "above" : "below", loser);
	if (!wp_golden_next(&s->g, low_better))
	{
		s->stop = psprintf("resolution: %s, and no value of the range by the resolution (%s) is left to try beside %s",
						   moved, s->req->search_resolution, winner);
		return s->stop;
	}
	wp_bracket(s, &low, &high);
	s->pair++;
	s->pair_rounds = 0;
	s->why = psprintf("pair %d: %s (new) and %s (kept): %s; the peak is searched in [%s, %s]",
					  s->pair, wp_lat(s, s->g.c == keep ? s->g.d : s->g.c), winner, moved, low, high);
	return psprintf("%s; next pair %s and %s", moved, wp_lat(s, s->g.c), wp_lat(s, s->g.d));
}

/*
 * After a round of the pair: another round, the next pair, or the end,
 * with what the search did in words.
 */
static char *
wp_search_decide(WpSearch *s, const WpPairVerdict *v)
{
	const WpSweepRequest *req = s->req;

	if (s->pair_rounds < req->repeats)
	{
		s->why = psprintf("pair %d again: a pair gets at least %d rounds", s->pair, req->repeats);
		return pstrdup("another round");
	}
	if (strcmp(v->verdict, "faster") == 0 || strcmp(v->verdict, "slower") == 0)
		return wp_search_move(s, strcmp(v->verdict, "faster") == 0);
	if (strcmp(v->verdict, "equivalent") == 0)
	{
		s->stop = psprintf("flat: %s and %s are the same within the margin (equivalent), so the curve is flat between them",
						   wp_lat(s, s->g.c), wp_lat(s, s->g.d));
		return s->stop;
	}
	/* two rounds' spread (t with one degree of freedom) says little of what more would do */
	if (s->pair_rounds < req->max_repeats && s->pair_rounds < 3)
	{
		s->why = psprintf("pair %d again: after %d rounds the rule cannot order %s and %s yet, and the spread of two rounds cannot say how many would",
						  s->pair, s->pair_rounds, wp_lat(s, s->g.c), wp_lat(s, s->g.d));
		return pstrdup("another round");
	}
	if (s->pair_rounds < req->max_repeats && v->rounds_needed > 0 && v->rounds_needed <= req->max_repeats)
	{
		s->why = psprintf("pair %d again: after %d rounds the rule cannot order %s and %s yet, and about %d rounds would at this spread",
						  s->pair, s->pair_rounds, wp_lat(s, s->g.c), wp_lat(s, s->g.d), v->rounds_needed);
		return pstrdup("another round");
	}
	s->stop = psprintf("flat within the noise: %s and %s cannot be told apart in %d rounds%s",
					   wp_lat(s, s->g.c), wp_lat(s, s->g.d), s->pair_rounds,
					   s->pair_rounds >= req->max_repeats ? ", the most a pair gets" :
					   v->rounds_needed > 0 ? psprintf(", and it would take about %d at this spread (a pair gets at most %d)",
													   v->rounds_needed, req->max_repeats) :
					   " at any practical number of rounds (the difference is about the margin)");
	return s->stop;
}

/*
 * Run the search; returns the status, "done" or "cancelled".
 */
const char *
wp_search_run(int64 id, const WpStepPlan *plan, MemoryContext step_cxt)
{
	const WpSweepRequest *req = plan->req;
	WpSearch	s = {0};
	WpRun		run;
	TimestampTz started = GetCurrentTimestamp();
	const char *low,
			   *high;
	char	   *found;

	s.req = req;
	s.pair = 1;
	wp_golden_start(&s.g, req->search_n);
	wp_bracket(&s, &low, &high);
	s.why = psprintf("pair 1: %s and %s, at 0.382 and 0.618 of the range [%s, %s] by %s",
					 wp_lat(&s, s.g.c), wp_lat(&s, s.g.d), low, high, req->search_resolution);
	wp_run_begin(&run, id, plan, step_cxt);
	run.total = wp_golden_first_steps(req);

	for (int round = 1; s.stop == NULL; round++)
	{
		WpSearchRound rec = {0};
		WpPairVerdict v;
		int			pair_round; /* this round's number in its pair, told */
		int			pos[3];
		int			n = wp_golden_round(req, &s.g, round, pos);
		double		elapsed;

		for (int i = 0; i < n; i++)
		{
			if (wp_run_step(&run, round, pos[i], i < n - 1) == WP_RUN_STOPPED || wp_job_cancelled())
			{
				wp_run_tell(&run, NULL);
				return run.done < run.total ? "cancelled" : "done";
			}
			rec.vals[i] = req->vals[pos[i]];
		}
		rec.nvals = n;
		rec.round = round;
		rec.pair = s.pair;
		rec.why = s.why;
		wp_bracket(&s, &rec.low, &rec.high);
		pair_round = ++s.pair_rounds;	/* a move to the next pair resets it */
		wp_pair_decide(id, req->search_pos[s.g.c], req->search_pos[s.g.d], &v);
		rec.verdict = wp_verdict_text(&s, &v);
		rec.decision = wp_search_decide(&s, &v);

		/* the budget: stop before a round that would pass it */
		elapsed = (double) (GetCurrentTimestamp() - started) / USECS_PER_SEC;
		if (s.stop == NULL && req->budget_s > 0 && elapsed + elapsed / round > req->budget_s)
			rec.decision = s.stop = psprintf("budget: %s would come next, and a round (about %.0f s) would pass the budget of %.0f s",
											 s.pair_rounds == 0 ? "the next pair" : "another round of the pair",
											 elapsed / round, req->budget_s);
		if (s.stop == NULL)
		{
			run.total = run.done + wp_golden_round(req, &s.g, round + 1, pos);
			wp_job_set_total(run.total);
			wp_search_round_insert(id, &rec, run.total);
			wp_run_tell(&run, psprintf("pair %d, round %d: %s: %s", rec.pair, pair_round,
									   rec.verdict, rec.decision));
			continue;
		}
		/* the end: what it found, recorded and told */
		run.total = run.step;
		wp_job_set_total(run.total);
		wp_search_round_insert(id, &rec, run.total);
		found = wp_sweep_top(id, req);
		found = psprintf("%s; found %s", s.stop, found ? found : "nothing (no step counts)");
		wp_search_stop_record(id, found);
		wp_run_tell(&run, psprintf("pair %d, round %d: %s; the search stops: %s", rec.pair,
								   pair_round, rec.verdict, found));
	}
	return "done";
}

/*-------------------------------------------------------------------------
 *
 * search.c
 *		A search over a range (run_sweep's range =>): the values to run
 *		chosen as the rounds come in, by golden section (sweep/golden.c),
 *		each pair decided by the one rule (effects(), paired by round), and
 *		why each round ran recorded as it goes (rows_search.c).
 *
 * A pair's first round runs the baseline (the current value) and the pair;
 * its later rounds the pair alone.  The pair is decided on its own rounds,
 * paired by round, so that what drifts from round to round weighs on both
 * alike; the baseline in its first round measures every value the search
 * tries against the current one at least once, which results reads as it
 * reads any sweep.  After each round the rule (sweep/search_rule.c) says:
 * another round, a move (the bracket around the peak ends at the slower
 * one, and the next pair is the kept value and its mirror), or the end.
 * The search also stops when no value is left inside the bracket (the
 * resolution), or before a round that would pass its budget: as many steps
 * as the range has values (at least two pairs' fewest rounds; a new pair
 * starts only when its fewest rounds fit), or run_sweep's budget of time
 * when it has one.
 *
 * What it found is the better of its last pair (the kept value once it has
 * moved; within a pair, the one with more tps in the pair's rounds): the
 * value the search's own comparisons point to, recorded as
 * sweeps.search_found, which best starts from (_top).  bench/search-simulate
 * replays the rules on bench/search's measured grids: the last pair's
 * better one was within 5% of the grid's best as often or more often than
 * the value with the most tps against the baseline, whose rounds with the
 * baseline are few.
 *
 * IDENTIFICATION
 *	  src/coordinator/search.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/timestamp.h"

#include "coordinator/decision.h"
#include "coordinator/step_run.h"
#include "coordinator/search.h"
#include "coordinator/rows_search.h"
#include "job/slot.h"
#include "sweep/golden.h"
#include "sweep/search_rule.h"

/* Where a search is. */
typedef struct WpSearch
{
	const WpSweepRequest *req;
	WpGolden	g;
	int			pair;			/* the pair's number, from 1 */
	int			pair_rounds;	/* rounds the pair has had */
	int			kept;			/* the value kept from the last move, -1: none yet */
	int			found;			/* once stopped: the value it found, -1: none */
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
 * One of the pair is the better: faster, or, when the rule cannot order
 * them in the rounds a pair may have (undecided says how), more tps in the
 * pair's rounds.  Move the bracket and say why; the search stops when no
 * value is left to try.
 */
static char *
wp_search_move(WpSearch *s, bool low_better, const char *undecided)
{
	int			keep = low_better ? s->g.c : s->g.d;
	const char *winner = wp_lat(s, keep);
	const char *loser = wp_lat(s, low_better ? s->g.d : s->g.c);
	char	   *moved;
	const char *low,
			   *high;

	if (undecided == NULL)
		moved = psprintf("%s is faster than %s, so the peak is not %s %s (one peak)", winner, loser,
						 low_better ? "above" : "below", loser);
	else
		moved = psprintf("%s has more tps than %s (%s: the search follows the point estimate), so the peak is taken not to be %s %s (one peak)",
						 winner, loser, undecided, low_better ? "above" : "below", loser);
	s->kept = keep;
	if (!wp_golden_next(&s->g, low_better))
	{
		s->found = keep;
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
 * After a round of the pair: another round, the next pair, or the end
 * (search_rule.c), with what the search did in words.
 */
static char *
wp_search_decide(WpSearch *s, const WpPairVerdict *v)
{
	const WpSweepRequest *req = s->req;
	const WpSearchVerdict *sv = &v->rule;
	bool		low_better;
	const char *c = wp_lat(s, s->g.c);
	const char *d = wp_lat(s, s->g.d);

	switch (wp_search_rule(sv, s->pair_rounds, req->repeats, req->max_repeats, &low_better))
	{
		case WP_SEARCH_FEWEST:
			s->why = psprintf("pair %d again: a pair gets at least %d rounds", s->pair, req->repeats);
			return pstrdup("another round");
		case WP_SEARCH_THIRD:
			s->why = psprintf("pair %d again: after %d rounds the rule cannot order %s and %s yet, and the spread of two rounds cannot say how many would",
							  s->pair, s->pair_rounds, c, d);
			return pstrdup("another round");
		case WP_SEARCH_NEEDED:
			s->why = psprintf("pair %d again: after %d rounds the rule cannot order %s and %s yet, and about %d rounds would at this spread",
							  s->pair, s->pair_rounds, c, d, sv->rounds_needed);
			return pstrdup("another round");
		case WP_SEARCH_MOVE:
			return wp_search_move(s, low_better, NULL);
		case WP_SEARCH_LEAN:
			return wp_search_move(s, low_better,
								  psprintf("%.3fx, undecided after %d rounds%s", sv->ratio, s->pair_rounds,
										   s->pair_rounds >= req->max_repeats ? ", the most a pair gets" :
										   sv->rounds_needed > 0 ? psprintf(", and it would take about %d at this spread", sv->rounds_needed) :
										   ", the difference about the margin"));
		case WP_SEARCH_FLAT:
			s->found = wp_search_leader(sv, s->pair_rounds, s->g.c, s->g.d, s->kept);
			s->stop = psprintf("flat: %s and %s are the same within the margin (equivalent), so the curve is flat between them",
							   c, d);
			return s->stop;
		case WP_SEARCH_BLIND:
			break;
	}
	s->found = s->kept;
	s->stop = psprintf("no round measured both %s and %s in %d rounds", c, d, s->pair_rounds);
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
	s.kept = -1;
	s.found = -1;
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
		int			n = wp_golden_round(req, &s.g, round, s.pair_rounds == 0, pos);
		int			next;
		int			need;
		char	   *budget;
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

		/* the budgets: stop before a round that would pass one */
		elapsed = (double) (GetCurrentTimestamp() - started) / USECS_PER_SEC;
		next = s.stop ? 0 : wp_golden_round(req, &s.g, round + 1, s.pair_rounds == 0, pos);
		/* a new pair starts only when its fewest rounds fit */
		need = s.pair_rounds == 0 && s.stop == NULL ? wp_golden_pair_steps(req, &s.g, round + 1) : next;
		budget = NULL;
		if (s.stop == NULL && req->search_max_steps > 0 && run.step + need > req->search_max_steps)
			budget = psprintf("budget: %s (%d step%s) would pass the %d steps of the search (as many as the range has values, at least two pairs' fewest rounds; run_sweep's budget sets a time instead)",
							  s.pair_rounds == 0 ? "the next pair's fewest rounds" : "another round of the pair",
							  need, need == 1 ? "" : "s", req->search_max_steps);
		else if (s.stop == NULL && req->budget_s > 0 && elapsed + elapsed / round > req->budget_s)
			budget = psprintf("budget: %s would come next, and a round (about %.0f s) would pass the budget of %.0f s",
							  s.pair_rounds == 0 ? "the next pair" : "another round of the pair",
							  elapsed / round, req->budget_s);
		if (s.stop == NULL && budget == NULL)
		{
			run.total = run.step + next;
			wp_job_set_total(run.total);
			wp_search_round_insert(id, &rec, run.total);
			wp_run_tell(&run, psprintf("pair %d, round %d: %s: %s", rec.pair, pair_round,
									   rec.verdict, rec.decision));
			continue;
		}
		if (budget != NULL)
		{
			s.stop = budget;
			s.found = wp_search_leader(&v.rule, s.pair_rounds, s.g.c, s.g.d, s.kept);
			/* what the rule did, kept when it moved to the next pair */
			rec.decision = s.pair_rounds == 0 ? psprintf("%s; %s", rec.decision, budget) : budget;
		}

		/* the end: what it found, recorded and told */
		run.total = run.step;
		wp_job_set_total(run.total);
		wp_search_round_insert(id, &rec, run.total);
		found = wp_sweep_found(id, req, s.found >= 0 ? req->search_pos[s.found] : -1);
		found = psprintf("%s; found %s", s.stop, found ? found : "nothing (no step counts)");
		wp_search_stop_record(id, found, s.found >= 0 ? req->search_pos[s.found] : -1);
		wp_run_tell(&run, psprintf("pair %d, round %d: %s; the search stops: %s", rec.pair,
								   pair_round, rec.verdict, found));
	}
	return "done";
}

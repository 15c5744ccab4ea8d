/*-------------------------------------------------------------------------
 *
 * golden.c
 *		The geometry of a golden-section search over the n values of a
 *		range, lowest first (Kiefer's search for the peak of a function with
 *		one peak; on a lattice of values it is close to his Fibonacci
 *		search).  Pure: the coordinator's search (coordinator/search.c)
 *		asks the rule which of the pair is better and moves the bracket
 *		here; run_sweep's plan counts the pairs a search can take.
 *
 * The pair sits at 0.382 and 0.618 of the bracket.  When the lower of the
 * two is better, the peak cannot be above the higher one (one peak), so the
 * bracket ends there and the lower one is kept; the new value is its mirror
 * in the new bracket, which puts the pair at 0.382 and 0.618 again.  Each
 * pair thus shrinks the bracket to 0.618 of its width and needs one new
 * value.  The search ends when no value is left strictly inside the bracket
 * but the kept one: the answer is then as fine as the range's values.
 *
 * IDENTIFICATION
 *	  src/sweep/golden.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "sweep/golden.h"

#define WP_GOLDEN_LOW	0.3819660112501051	/* 2 - the golden ratio */

/* The first pair over n values (n >= 2). */
void
wp_golden_start(WpGolden *g, int n)
{
	g->a = -1;
	g->b = n;
	g->c = g->a + (int) rint(WP_GOLDEN_LOW * (g->b - g->a));
	g->c = Max(g->c, 0);
	g->d = g->a + g->b - g->c;
	if (g->d <= g->c)
		g->d = g->c + 1;
}

/*
 * The next pair, once the rule has said whether the lower value of the
 * pair (c) is the better one.  false when no value is left to try: the
 * kept one, the better of the last pair, is the answer.
 */
bool
wp_golden_next(WpGolden *g, bool low_better)
{
	int			keep;
	int			x;

	if (low_better)
	{
		g->b = g->d;
		keep = g->c;
	}
	else
	{
		g->a = g->c;
		keep = g->d;
	}
	x = g->a + g->b - keep;
	if (x == keep)
		x = g->b - keep > keep - g->a ? keep + 1 : keep - 1;
	if (x <= g->a || x >= g->b)
	{
		g->c = g->d = keep;
		return false;
	}
	g->c = Min(x, keep);
	g->d = Max(x, keep);
	return true;
}

/* The most pairs a search of n values can compare, over every outcome. */
static int
wp_golden_depth(WpGolden g)
{
	WpGolden	lo = g;
	WpGolden	hi = g;
	int			dl = 0;
	int			dh = 0;

	if (wp_golden_next(&lo, true))
		dl = wp_golden_depth(lo);
	if (wp_golden_next(&hi, false))
		dh = wp_golden_depth(hi);
	return 1 + Max(dl, dh);
}

int
wp_golden_max_pairs(int n)
{
	WpGolden	g;

	if (n < 2)
		return 0;
	wp_golden_start(&g, n);
	return wp_golden_depth(g);
}

/*
 * The positions in the request's values that a round of the pair runs, in
 * order: the baseline first in the pair's first round (with_base), then
 * the pair, whose order alternates from one round to the next (so that
 * what drifts within a round weighs on both alike); a value that is
 * already in the round runs once.  Returns how many.
 *
 * The pair is decided on its own rounds, paired by round, with no need of
 * the baseline; the baseline runs in the pair's first round only, so that
 * every value the search tries is measured against it at least once (what
 * results reads) without paying for it in every round.
 */
int
wp_golden_round(const WpSweepRequest *req, const WpGolden *g, int round, bool with_base, int *pos)
{
	int			run[3];
	int			n = 0;
	int			m = 0;

	if (with_base)
		run[n++] = 0;
	run[n++] = req->search_pos[round % 2 ? g->c : g->d];
	run[n++] = req->search_pos[round % 2 ? g->d : g->c];
	for (int i = 0; i < n; i++)
	{
		bool		seen = false;

		for (int j = 0; j < m; j++)
			seen |= pos[j] == run[i];
		if (!seen)
			pos[m++] = run[i];
	}
	return m;
}

/* The steps of pair g at its fewest rounds, its first being round. */
int
wp_golden_pair_steps(const WpSweepRequest *req, const WpGolden *g, int round)
{
	int			pos[3];
	int			steps = wp_golden_round(req, g, round, true, pos);

	for (int r = 1; r < req->repeats; r++)
		steps += wp_golden_round(req, g, round + r, false, pos);
	return steps;
}

/* The steps of a search's first pair at its fewest rounds. */
int
wp_golden_first_steps(const WpSweepRequest *req)
{
	WpGolden	g;

	wp_golden_start(&g, req->search_n);
	return wp_golden_pair_steps(req, &g, 1);
}

/*
 * The most steps a search of the request can take, over every outcome: its
 * step budget when it has one (wp_request_search_rounds), else every pair
 * at its most rounds.
 */
int
wp_golden_most_steps(const WpSweepRequest *req)
{
	if (req->search_max_steps > 0)
		return req->search_max_steps;
	return wp_golden_max_pairs(req->search_n) * (3 + 2 * (req->max_repeats - 1));
}

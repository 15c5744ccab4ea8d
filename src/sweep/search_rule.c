/*-------------------------------------------------------------------------
 *
 * search_rule.c
 *		What a search does after a round of its pair: another round, a
 *		move of the bracket, or the end, from the one rule's verdict on
 *		the pair (effects(), paired by round).  Pure: the coordinator's
 *		search (coordinator/search.c) reads the verdict, asks here, and
 *		says in words what it did; test/unit/search_rule_test.c checks it.
 *
 * A pair gets the fewest rounds the request asks (repeats, 2 at least: one
 * round has no interval), then more while the rule cannot order the two: a
 * third at least (the spread of two rounds, with one degree of freedom,
 * says little of what more would do), then while it says a few more rounds
 * would (rounds_needed within the most a pair gets, max_repeats).  Then:
 *
 *	- one of the pair is faster: move toward it;
 *	- the two are the same within the margin: the curve is flat between
 *	  them, and the search stops (narrowing further would follow the noise);
 *	- the rule still cannot order them: move by the point estimate, the one
 *	  with more tps in the pair's rounds.  A slope too small for a few
 *	  rounds to see is more likely the right way than the wrong one;
 *	  stopping there instead took any such pair for a flat curve, and ended
 *	  bench/search's tpcb-delay case at its first pair (0.931x the grid's
 *	  best).  bench/search-simulate replays both rules on the measured
 *	  grids;
 *	- no round measured both (their steps failed or were skipped): stop.
 *
 * IDENTIFICATION
 *	  src/sweep/search_rule.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "sweep/search_rule.h"

/*
 * The action after the pair's pair_rounds-th round; *low_better says which
 * way a move goes (true: toward c, the lower value).
 */
WpSearchAction
wp_search_rule(const WpSearchVerdict *v, int pair_rounds, int repeats, int max_repeats,
			   bool *low_better)
{
	*low_better = false;
	if (pair_rounds < repeats)
		return WP_SEARCH_FEWEST;
	if (strcmp(v->verdict, "faster") == 0 || strcmp(v->verdict, "slower") == 0)
	{
		*low_better = strcmp(v->verdict, "faster") == 0;
		return WP_SEARCH_MOVE;
	}
	if (strcmp(v->verdict, "equivalent") == 0)
		return WP_SEARCH_FLAT;
	if (pair_rounds < max_repeats && pair_rounds < 3)
		return WP_SEARCH_THIRD;
	if (pair_rounds < max_repeats && v->rounds_needed > 0 && v->rounds_needed <= max_repeats)
		return WP_SEARCH_NEEDED;
	if (!(v->ratio > 0))
		return WP_SEARCH_BLIND;
	*low_better = v->ratio >= 1;
	return WP_SEARCH_LEAN;
}

/*
 * The better of the pair so far, by the point estimate of its rounds: what
 * a search that stops within a pair found (c or d, lattice indexes).  The
 * value kept by the last move when the pair has had no round that measured
 * both (-1 before any move).
 */
int
wp_search_leader(const WpSearchVerdict *v, int pair_rounds, int c, int d, int kept)
{
	if (pair_rounds == 0 || !(v->ratio > 0))
		return kept;
	return v->ratio >= 1 ? c : d;
}

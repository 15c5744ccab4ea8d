/*
 * test/unit/search_rule_test.c: a search's rule after a round of its pair
 * (src/sweep/search_rule.c) and the rounds golden section makes
 * (src/sweep/golden.c), outside a server: the rounds a pair gets, a move,
 * a pair still undecided after its rounds moved by its point estimate, a
 * flat pair, what a search that stops within a pair found, the baseline in
 * a pair's first round only, and the steps a search may take.
 */
#include "postgres.h"

#include <stdio.h>

#include "sweep/golden.h"
#include "sweep/search_rule.h"

#include "tap.h"

static WpSearchAction
rule(const char *verdict, double ratio, int needed, int pair_rounds, bool *low_better)
{
	WpSearchVerdict v = {verdict, ratio, needed};

	return wp_search_rule(&v, pair_rounds, 2, 4, low_better);
}

static WpSweepRequest req;

int
main(void)
{
	bool		low;
	WpSearchVerdict v = {"undecided", 1.04, 0};
	WpGolden	g;
	int			pos[3];
	int			n;

	/* the rounds a pair gets */
	ok(rule("faster", 1.2, 0, 1, &low) == WP_SEARCH_FEWEST, "one round: another, whatever the rule says");
	ok(rule("undecided", 1.01, 0, 2, &low) == WP_SEARCH_THIRD, "undecided after two: a third round");
	ok(rule("undecided", 1.01, 4, 3, &low) == WP_SEARCH_NEEDED, "undecided after three, four would decide: a fourth");

	/* a move, a flat pair */
	ok(rule("faster", 1.1, 0, 2, &low) == WP_SEARCH_MOVE && low, "the lower value faster: move toward it");
	ok(rule("slower", 0.9, 0, 3, &low) == WP_SEARCH_MOVE && !low, "the lower value slower: move toward the higher");
	ok(rule("equivalent", 1.001, 0, 2, &low) == WP_SEARCH_FLAT, "the same within the margin: flat, the search stops");

	/* undecided in the rounds a pair may have: the point estimate, not a stop */
	ok(rule("undecided", 1.03, 7, 4, &low) == WP_SEARCH_LEAN && low,
	   "undecided after the most rounds, the lower value ahead: move toward it");
	ok(rule("undecided", 0.97, 0, 4, &low) == WP_SEARCH_LEAN && !low,
	   "undecided after the most rounds, the higher value ahead: move toward it");
	ok(rule("undecided", 1.02, 9, 3, &low) == WP_SEARCH_LEAN && low,
	   "undecided after three, more than the most would be needed: move by the point estimate");
	ok(rule("undecided", 0, 0, 4, &low) == WP_SEARCH_BLIND, "no round measured both: the search stops");

	/* what a search that stops found */
	ok(wp_search_leader(&v, 0, 3, 5, 7) == 7, "no round of the pair yet: the kept value");
	ok(wp_search_leader(&v, 2, 3, 5, 7) == 3, "within a pair: the one with more tps (the lower)");
	v.ratio = 0.98;
	ok(wp_search_leader(&v, 2, 3, 5, 7) == 5, "within a pair: the one with more tps (the higher)");
	v.ratio = 0;
	ok(wp_search_leader(&v, 2, 3, 5, -1) == -1, "nothing measured both, nothing kept: none");

	/* 0 (the baseline, outside the range) then 9 values at positions 1..9 */
	req.search_n = 9;
	for (int i = 0; i < 9; i++)
		req.search_pos[i] = i + 1;
	req.repeats = 2;
	req.max_repeats = 4;
	wp_golden_start(&g, 9);
	ok(g.c == 3 && g.d == 5, "the first pair at 0.382 and 0.618 of the range");
	n = wp_golden_round(&req, &g, 1, true, pos);
	ok(n == 3 && pos[0] == 0 && pos[1] == 4 && pos[2] == 6, "a pair's first round: the baseline, then the pair");
	n = wp_golden_round(&req, &g, 2, false, pos);
	ok(n == 2 && pos[0] == 6 && pos[1] == 4, "its later rounds: the pair alone, the other way round");
	req.search_pos[3] = 0;		/* the baseline one of the pair */
	n = wp_golden_round(&req, &g, 1, true, pos);
	ok(n == 2 && pos[0] == 0 && pos[1] == 6, "a value of the pair that is the baseline runs once");
	req.search_pos[3] = 4;
	ok(wp_golden_first_steps(&req) == 5, "the first pair's fewest steps: 3 then 2");
	req.repeats = 3;
	ok(wp_golden_first_steps(&req) == 7, "with repeats 3: 3, 2, 2");
	req.search_pos[3] = 0;
	ok(wp_golden_pair_steps(&req, &g, 4) == 6, "a pair with the baseline in it, repeats 3: 2, 2, 2");
	req.search_pos[3] = 4;
	req.search_max_steps = 9;
	ok(wp_golden_most_steps(&req) == 9, "a budget of steps bounds the search");
	req.search_max_steps = 0;
	ok(wp_golden_most_steps(&req) == wp_golden_max_pairs(9) * (3 + 2 * 3),
	   "without one: every pair at its most rounds");

	return done_testing();
}

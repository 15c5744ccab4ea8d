/*-------------------------------------------------------------------------
 *
 * search_rule.h
 *		What a search does after a round of its pair, from the rule's
 *		verdict on the pair (search_rule.c, pure).
 *
 * IDENTIFICATION
 *	  src/sweep/search_rule.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_SEARCH_RULE_H
#define WALPRESSURE_SEARCH_RULE_H

typedef enum WpSearchAction
{
	WP_SEARCH_FEWEST,			/* another round: the pair has had fewer than repeats */
	WP_SEARCH_THIRD,			/* another round: undecided, and two rounds' spread says little */
	WP_SEARCH_NEEDED,			/* another round: undecided, and a few more would decide */
	WP_SEARCH_MOVE,				/* one of the pair is faster: move toward it */
	WP_SEARCH_LEAN,				/* undecided in the rounds a pair may have: move by the point estimate */
	WP_SEARCH_FLAT,				/* the pair is the same within the margin: stop */
	WP_SEARCH_BLIND				/* no round measured both: stop */
} WpSearchAction;

/* The rule on the pair, the lower value (c) against the higher (d). */
typedef struct WpSearchVerdict
{
	const char *verdict;		/* faster, slower, equivalent, undecided */
	double		ratio;			/* c over d, 0 when no round measured both */
	int			rounds_needed;	/* undecided: the rounds that would decide, 0: none would */
} WpSearchVerdict;

extern WpSearchAction wp_search_rule(const WpSearchVerdict *v, int pair_rounds, int repeats,
									 int max_repeats, bool *low_better);
extern int	wp_search_leader(const WpSearchVerdict *v, int pair_rounds, int c, int d, int kept);

#endif							/* WALPRESSURE_SEARCH_RULE_H */

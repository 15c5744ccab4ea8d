/*-------------------------------------------------------------------------
 *
 * rows_search.h
 *		A search's record: each round in walpressure.search_rounds, and
 *		why it stopped in its sweep's row (rows_search.c).
 *
 * IDENTIFICATION
 *	  src/coordinator/rows_search.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_ROWS_SEARCH_H
#define WALPRESSURE_ROWS_SEARCH_H

/* One round of a search, as its row records it. */
typedef struct WpSearchRound
{
	int			round;			/* steps.repeat of its steps */
	int			pair;			/* which pair of values it compared */
	const char *low;			/* the values the peak was searched in */
	const char *high;
	const char *vals[3];		/* what it ran, in order, the baseline first (a pair's first round) */
	int			nvals;
	const char *why;			/* why it ran them */
	const char *verdict;		/* the rule on the pair after it, NULL: none */
	const char *decision;		/* what the search did then */
} WpSearchRound;

extern void wp_search_round_insert(int64 sweep_id, const WpSearchRound *r, int steps_total);
extern void wp_search_stop_record(int64 sweep_id, const char *why, int pos);

#endif							/* WALPRESSURE_ROWS_SEARCH_H */

/*-------------------------------------------------------------------------
 *
 * decision.h
 *		One more round or the end, and the rule on a search's pair
 *		(decision.c).
 *
 * IDENTIFICATION
 *	  src/coordinator/decision.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_DECISION_H
#define WALPRESSURE_DECISION_H

#include "sweep/request.h"
#include "sweep/search_rule.h"

/* The rule on two values of a sweep, paired by round (effects()). */
typedef struct WpPairVerdict
{
	int			rounds;			/* rounds that measured both */
	WpSearchVerdict rule;		/* the verdict (a against b), the ratio, rounds_needed */
	char	   *detail;			/* the rule's words, NULL when no round measured both */
} WpPairVerdict;

extern void wp_pair_decide(int64 sweep_id, int a_pos, int b_pos, WpPairVerdict *v);
extern char *wp_sweep_found(int64 sweep_id, const WpSweepRequest *req, int pos);
extern bool wp_results_auto_decide(int64 sweep_id, const WpSweepRequest *req, int rounds,
								   double round_s, double elapsed_s);

#endif							/* WALPRESSURE_DECISION_H */

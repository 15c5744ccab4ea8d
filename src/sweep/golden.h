/*-------------------------------------------------------------------------
 *
 * golden.h
 *		The geometry of a golden-section search over the values of a range
 *		(golden.c): which pair of values to compare, and the next pair once
 *		the rule has said which of the two is better.
 *
 * IDENTIFICATION
 *	  src/sweep/golden.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_GOLDEN_H
#define WALPRESSURE_GOLDEN_H

#include "sweep/request.h"

/*
 * The range's values are indexed 0 .. n - 1, lowest first.  The peak is
 * searched strictly between a and b (-1 and n at the start, so that both
 * ends of the range can be found); c < d are the pair being compared.
 */
typedef struct WpGolden
{
	int			a;
	int			b;
	int			c;
	int			d;
} WpGolden;

extern void wp_golden_start(WpGolden *g, int n);
extern bool wp_golden_next(WpGolden *g, bool low_better);
extern int	wp_golden_max_pairs(int n);
extern int	wp_golden_round(const WpSweepRequest *req, const WpGolden *g, int round, bool with_base, int *pos);
extern int	wp_golden_pair_steps(const WpSweepRequest *req, const WpGolden *g, int round);
extern int	wp_golden_first_steps(const WpSweepRequest *req);
extern int	wp_golden_most_steps(const WpSweepRequest *req);

#endif							/* WALPRESSURE_GOLDEN_H */

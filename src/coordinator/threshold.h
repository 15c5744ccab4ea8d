/*-------------------------------------------------------------------------
 *
 * threshold.h
 *		Before the first step: the flush cost F0 and the group-commit
 *		threshold lambda* = 2/F0 (threshold.c).
 *
 * IDENTIFICATION
 *	  src/coordinator/threshold.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_THRESHOLD_H
#define WALPRESSURE_THRESHOLD_H

#include "coordinator/cap_hold.h"
#include "sweep/request.h"

extern void wp_threshold_measure(int64 id, const WpSweepRequest *req, WpCap *cap);

#endif							/* WALPRESSURE_THRESHOLD_H */

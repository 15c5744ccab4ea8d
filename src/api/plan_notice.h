/*-------------------------------------------------------------------------
 *
 * plan_notice.h
 *		What run_sweep says as the sweep starts (plan_notice.c).
 *
 * IDENTIFICATION
 *	  src/api/plan_notice.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_PLAN_NOTICE_H
#define WALPRESSURE_PLAN_NOTICE_H

#include "sweep/request.h"

extern void wp_plan_notice(const WpSweepRequest *req, bool wait, int64 id,
						   const char *threshold);

#endif							/* WALPRESSURE_PLAN_NOTICE_H */

/*-------------------------------------------------------------------------
 *
 * rate_request.h
 *		run_sweep's open loop: rate and latency_limit, checked as the
 *		caller (rate_request.c).
 *
 * IDENTIFICATION
 *	  src/api/rate_request.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_RATE_REQUEST_H
#define WALPRESSURE_RATE_REQUEST_H

#include "fmgr.h"

#include "sweep/request.h"

#define WP_RATE_MAX				10000000.0	/* transactions/s */
#define WP_TXN_FLOOR_US			50	/* no transaction is shorter: a round trip */
#define WP_LATENCY_LIMIT_MAX_MS	3600000.0	/* an hour */

extern double wp_check_rate_value(const char *value);
extern void wp_request_rate(FunctionCallInfo fcinfo, WpSweepRequest *req);

#endif							/* WALPRESSURE_RATE_REQUEST_H */

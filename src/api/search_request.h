/*-------------------------------------------------------------------------
 *
 * search_request.h
 *		run_sweep's range, search and resolution, checked as the caller
 *		(search_request.c).
 *
 * IDENTIFICATION
 *	  src/api/search_request.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_SEARCH_REQUEST_H
#define WALPRESSURE_SEARCH_REQUEST_H

#include "fmgr.h"

#include "sweep/request.h"

extern bool wp_search_asked(FunctionCallInfo fcinfo);
extern int64 wp_request_search(FunctionCallInfo fcinfo, WpSweepRequest *req);
extern void wp_request_search_rounds(WpSweepRequest *req);

#endif							/* WALPRESSURE_SEARCH_REQUEST_H */

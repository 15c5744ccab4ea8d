/*-------------------------------------------------------------------------
 *
 * configs_request.h
 *		A configuration sweep's values, checked into the request
 *		(configs_request.c).
 *
 * IDENTIFICATION
 *	  src/api/configs_request.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_CONFIGS_REQUEST_H
#define WALPRESSURE_CONFIGS_REQUEST_H

#include "sweep/request.h"

extern void wp_request_configs(WpSweepRequest *req, Datum *elems, int n);

#endif							/* WALPRESSURE_CONFIGS_REQUEST_H */

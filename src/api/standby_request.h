/*-------------------------------------------------------------------------
 *
 * standby_request.h
 *		run_sweep's checks of synchronous standbys (standby_request.c).
 *
 * IDENTIFICATION
 *	  src/api/standby_request.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_STANDBY_REQUEST_H
#define WALPRESSURE_STANDBY_REQUEST_H

#include "sweep/request.h"

extern void wp_request_standby_check(const WpSweepRequest *req);
extern void wp_request_standby_conninfo(WpSweepRequest *req, const char *conninfo);

#endif							/* WALPRESSURE_STANDBY_REQUEST_H */

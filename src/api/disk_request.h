/*-------------------------------------------------------------------------
 *
 * disk_request.h
 *		What disk a cap stands for, checked as the caller: run_sweep's and
 *		set_iops_cap's disk and flush floor (disk_request.c).
 *
 * IDENTIFICATION
 *	  src/api/disk_request.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_DISK_REQUEST_H
#define WALPRESSURE_DISK_REQUEST_H

#include "fmgr.h"

#include "sweep/request.h"

extern void wp_disk_require_paced(void);
extern void wp_disk_refuse_throttle_in_place(void);
extern WpDiskModel wp_disk_model_arg(const char *disk, bool *defaulted);
extern double wp_disk_floor_arg(double floor_ms);
extern void wp_request_disk(FunctionCallInfo fcinfo, WpSweepRequest *req);

#endif							/* WALPRESSURE_DISK_REQUEST_H */

/*-------------------------------------------------------------------------
 *
 * pgbench_preflight.h
 *		The pgbench engine's checks before a sweep (pgbench_preflight.c).
 *
 * IDENTIFICATION
 *	  src/api/pgbench_preflight.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_PGBENCH_PREFLIGHT_H
#define WALPRESSURE_PGBENCH_PREFLIGHT_H

#include "sweep/request.h"

extern void wp_pgbench_preflight(const WpSweepRequest *req);

#endif							/* WALPRESSURE_PGBENCH_PREFLIGHT_H */

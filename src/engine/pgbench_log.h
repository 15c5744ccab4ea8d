/*-------------------------------------------------------------------------
 *
 * pgbench_log.h
 *		Reading pgbench's per-transaction logs (pgbench_log.c).
 *
 * IDENTIFICATION
 *	  src/engine/pgbench_log.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_PGBENCH_LOG_H
#define WALPRESSURE_PGBENCH_LOG_H

#include "engine/engine.h"

extern void wp_pgbench_log_read(const char *dir, TimestampTz start, TimestampTz end,
								double limit_ms, WpLoadTotals *window, const TimestampTz *marks, int nmarks,
								WpLoadSecond *seconds);

#endif							/* WALPRESSURE_PGBENCH_LOG_H */

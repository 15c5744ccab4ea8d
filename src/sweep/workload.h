/*-------------------------------------------------------------------------
 *
 * workload.h
 *		The workloads' statements, once: as the backend engine's clients
 *		prepare them, and as the pgbench engine's scripts (workload.c).
 *
 * IDENTIFICATION
 *	  src/sweep/workload.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_WORKLOAD_H
#define WALPRESSURE_WORKLOAD_H

#include "sweep/load.h"

/* pgbench's constants: rows per unit of scale */
#define WP_NBRANCHES	1
#define WP_NTELLERS		10
#define WP_NACCOUNTS	100000

/* pgbench's statements, with parameters ($1 ...) for a prepared plan */
extern const char *const wp_sql_update_account;	/* $1 delta int4, $2 aid int8 */
extern const char *const wp_sql_select_account;	/* $1 aid int8 */
extern const char *const wp_sql_update_teller;	/* $1 delta int4, $2 tid int8 */
extern const char *const wp_sql_update_branch;	/* $1 delta int4, $2 bid int8 */
extern const char *const wp_sql_insert_history;	/* $1 tid, $2 bid int4, $3 aid int8, $4 delta int4 */

extern char *wp_workload_script(const WpLoadSpec *spec);

#endif							/* WALPRESSURE_WORKLOAD_H */

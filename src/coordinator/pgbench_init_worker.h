/*-------------------------------------------------------------------------
 *
 * pgbench_init_worker.h
 *		The worker behind init_pgbench(scale) (pgbench_init_worker.c).
 *
 * IDENTIFICATION
 *	  src/coordinator/pgbench_init_worker.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_PGBENCH_INIT_WORKER_H
#define WALPRESSURE_PGBENCH_INIT_WORKER_H

#include "fmgr.h"

PGDLLEXPORT void wp_init_pgbench_main(Datum main_arg);

#endif							/* WALPRESSURE_PGBENCH_INIT_WORKER_H */

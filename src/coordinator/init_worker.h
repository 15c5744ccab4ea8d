/*-------------------------------------------------------------------------
 *
 * init_worker.h
 *		The worker behind init_pgbench(scale) (init_worker.c).
 *
 * IDENTIFICATION
 *	  src/coordinator/init_worker.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_INIT_WORKER_H
#define WALPRESSURE_INIT_WORKER_H

#include "fmgr.h"

PGDLLEXPORT void wp_init_pgbench_main(Datum main_arg);

#endif							/* WALPRESSURE_INIT_WORKER_H */

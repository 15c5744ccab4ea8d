/*-------------------------------------------------------------------------
 *
 * init_pgbench.h
 *		init_pgbench(scale): pgbench's tables built in the server
 *		(init_pgbench.c).
 *
 * IDENTIFICATION
 *	  src/init_pgbench.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_INIT_PGBENCH_H
#define WALPRESSURE_INIT_PGBENCH_H

#include "fmgr.h"

PGDLLEXPORT void wp_init_pgbench_main(Datum main_arg);

#endif							/* WALPRESSURE_INIT_PGBENCH_H */

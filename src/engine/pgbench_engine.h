/*-------------------------------------------------------------------------
 *
 * pgbench_engine.h
 *		The pgbench load engine: this server's own pgbench binary, run by
 *		the coordinator over the server's Unix socket as the caller
 *		(pgbench_engine.c).
 *
 * IDENTIFICATION
 *	  src/engine/pgbench_engine.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_PGBENCH_ENGINE_H
#define WALPRESSURE_PGBENCH_ENGINE_H

#include "engine/engine.h"

extern const WpLoadEngine wp_pgbench_engine;

#endif							/* WALPRESSURE_PGBENCH_ENGINE_H */

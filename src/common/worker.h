/*-------------------------------------------------------------------------
 *
 * worker.h
 *		What walpressure's dynamic background workers share (worker.c).
 *
 * IDENTIFICATION
 *	  src/common/worker.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_WORKER_H
#define WALPRESSURE_WORKER_H

#include "nodes/execnodes.h"

#include "utils/elog.h"
#include "utils/palloc.h"
#include "postgres_ext.h"

struct BackgroundWorker;
extern void wp_dynamic_worker(struct BackgroundWorker *worker, const char *function,
							  const char *name);
extern void wp_static_worker(const char *function, const char *name, int start,
							 int restart_s);
extern ErrorData *wp_catch_error(MemoryContext cxt);
extern int	wp_free_worker_slots(void);
extern pid_t wp_worker_running(const char *type);

#endif							/* WALPRESSURE_WORKER_H */

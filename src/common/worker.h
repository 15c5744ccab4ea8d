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
extern void wp_make_valid(char *text);
extern int	wp_backends_named(const char *name);
extern void wp_copy_text(char *dst, const char *src, Size size);

/* the application_name of the load's connections, by engine */
#define WP_LOAD_APPNAME_PGBENCH	"walpressure pgbench"
#define WP_LOAD_APPNAME_CLIENT	"walpressure client"
extern int	wp_load_backends(Oid roleid, bool syncrep_only, bool terminate);
extern int	wp_safe_path_begin(void);
extern void wp_safe_path_end(int nest);
extern void wp_spi_rows_out(ReturnSetInfo *rsinfo);

#endif							/* WALPRESSURE_WORKER_H */

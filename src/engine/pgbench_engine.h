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

extern char *wp_pgbench_path(void);
extern char *wp_socket_dir(void);
extern pid_t wp_pgbench_spawn(const WpLoadSpec *spec, int seconds, const char *dir,
							  const char *socket, const char *role, const char *db,
							  bool superuser_role);

#endif							/* WALPRESSURE_PGBENCH_ENGINE_H */

/*-------------------------------------------------------------------------
 *
 * pgbench_command.h
 *		How this server's pgbench is started (pgbench_command.c).
 *
 * IDENTIFICATION
 *	  src/engine/pgbench_command.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_PGBENCH_COMMAND_H
#define WALPRESSURE_PGBENCH_COMMAND_H

#include "sweep/load.h"

extern char *wp_pgbench_path(void);
extern char *wp_socket_dir(void);
extern pid_t wp_pgbench_spawn(const WpLoadSpec *spec, int seconds, const char *dir,
							  const char *socket, const char *role, const char *db,
							  bool superuser_role);

#endif							/* WALPRESSURE_PGBENCH_COMMAND_H */

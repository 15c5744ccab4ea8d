/*-------------------------------------------------------------------------
 *
 * pgbench_preflight.c
 *		Before a pgbench-engine sweep starts, in the caller's session: may
 *		the caller run a program, is this server's pgbench there, can it
 *		connect as the caller, does it parse the workload's script?  Each
 *		with its own clear error; pgbench is started as a step would start
 *		it (engine/pgbench_engine.c), for one transaction that runs no
 *		statement.
 *
 * IDENTIFICATION
 *	  src/api/pgbench_preflight.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <sys/wait.h>
#include <unistd.h>

#include "commands/dbcommands.h"
#include "miscadmin.h"
#include "storage/latch.h"
#include "utils/lsyscache.h"
#include "utils/wait_event.h"

#include "api/pgbench_preflight.h"
#include "common/program.h"
#include "common/text_cut.h"
#include "engine/pgbench_command.h"
#include "engine/pgbench_engine.h"
#include "sweep/load.h"
#include "sweep/rights.h"

#define WP_PREFLIGHT_WAIT_MS	30000

/* The hint for a connection pgbench could not make. */
static char *
wp_connect_hint(const char *err, const char *socket, const char *role, const char *db)
{
	if (strstr(err, "Peer authentication failed") || strstr(err, "Ident authentication failed") ||
		strstr(err, "no pg_hba.conf entry") || strstr(err, "password authentication failed") ||
		strstr(err, "no password supplied"))
		return psprintf("pgbench connects over the Unix socket in \"%s\" as role \"%s\" to database \"%s\", without a password: pg_hba.conf needs a line that lets it, such as \"local %s %s trust\" before the peer line, or the sweep must run as a role named like the server's OS user.",
						socket, role, db, db, role);
	return NULL;
}

/*
 * Before the first step, in the caller's session: may the caller run a
 * program, is this server's pgbench there, can it connect as the caller,
 * does it parse the workload's script?  Each with its own clear error.
 */
void
wp_pgbench_preflight(const WpSweepRequest *req)
{
	char	   *path = wp_pgbench_path();
	char	   *socket = wp_socket_dir();
	char		dir[MAXPGPATH];
	WpLoadSpec *spec = palloc(sizeof(WpLoadSpec));
	char	   *role = GetUserNameFromId(GetUserId(), false);
	char	   *db = get_database_name(MyDatabaseId);
	pid_t		pid;
	int			status = 0;
	bool		ended = false;
	char	   *err;

	wp_rights_program();
	if (access(path, X_OK) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_FILE),
				 errmsg("this server's pgbench is missing: \"%s\"", path),
				 errhint("Install the package that ships pgbench for PostgreSQL %s (on Debian, postgresql-%s), or run the sweep with engine => 'backend'.",
						 PG_MAJORVERSION, PG_MAJORVERSION)));
	if (socket == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("the pgbench engine needs a Unix socket, and unix_socket_directories is empty"),
				 errhint("Set unix_socket_directories and restart, or run the sweep with engine => 'backend'.")));

	/* the step's connection: the fixed session settings and the first value */
	wp_load_spec(req, 0, MyDatabaseId, GetUserId(), spec);
	spec->clients = 1;

	wp_program_dir("pgbench", dir);
	PG_TRY();
	{
		pid = wp_pgbench_spawn(spec, 0, dir, socket, role, db, superuser());
		for (int waited = 0; waited < WP_PREFLIGHT_WAIT_MS && !ended; waited += 50)
		{
			if ((ended = wp_reap(pid, &status)))
				break;
			(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
							 50, PG_WAIT_EXTENSION);
			ResetLatch(MyLatch);
			if (QueryCancelPending || ProcDiePending)
				break;
		}
		if (!ended)
			wp_kill_group(pid, &status);
		CHECK_FOR_INTERRUPTS();
		err = wp_file_tail(psprintf("%s/stderr", dir), 800);
		wp_make_valid(err);
		if (!ended)
			ereport(ERROR,
					(errcode(ERRCODE_EXTERNAL_ROUTINE_EXCEPTION),
					 errmsg("pgbench did not connect within %d s", WP_PREFLIGHT_WAIT_MS / 1000),
					 err[0] ? errdetail("pgbench said: %s", err) : 0));
		if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0))
		{
			char	   *hint = wp_connect_hint(err, socket, role, db);

			ereport(ERROR,
					(errcode(hint ? ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION :
							 ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("pgbench refused the sweep's %s before it started",
							hint ? "connection" : "workload or settings"),
					 errdetail("pgbench said: %s", err[0] ? err : "nothing"),
					 hint ? errhint("%s", hint) : 0));
		}
	}
	PG_FINALLY();
	{
		wp_remove_dir(dir);
	}
	PG_END_TRY();
}

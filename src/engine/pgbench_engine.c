/*-------------------------------------------------------------------------
 *
 * pgbench_engine.c
 *		The pgbench load engine: the load of a step is this server's own
 *		pgbench (found next to the running postgres binary), started by the
 *		coordinator, connected over the server's first Unix socket to this
 *		database as the role that runs the sweep.  It is what a DBA runs by
 *		hand: real client processes, the protocol, the client's CPU on the
 *		same cores.
 *
 * The step's session settings reach pgbench's backends through PGOPTIONS
 * (-c name=value), each a single value run_sweep checked; nothing goes
 * through a shell.  pgbench writes a per-transaction log (completion time
 * and latency of every transaction) into a private directory on tmpfs, so
 * that neither it nor the logs spend the capped disk's write IOs; once it
 * has ended, the transactions that ended inside the measured window give
 * the step's totals, its latency histogram and its per-second figures: the
 * warm-up is excluded by time, not guessed.
 *
 * pgbench never outlives its step: it runs in a process group of its own,
 * with SIGKILL as its parent-death signal, is killed with its group on a
 * cancel or an error, and a coordinator's exit kills it too.  A pgbench
 * that ends early, ends with aborted clients or fails marks its step with
 * its own stderr (steps.discarded): what it did is kept, not averaged.
 *
 * IDENTIFICATION
 *	  src/engine/pgbench_engine.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "access/xact.h"
#include "commands/dbcommands.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "postmaster/postmaster.h"
#include "storage/fd.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "catalog/pg_authid.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/timestamp.h"
#include "utils/varlena.h"
#include "utils/wait_event.h"

#include "common/cpu.h"
#include "sweep/figures.h"
#include "engine/pgbench_command.h"
#include "engine/pgbench_engine.h"
#include "engine/pgbench_log.h"
#include "sweep/workload.h"
#include "common/program.h"
#include "common/backends.h"
#include "common/text_cut.h"

#define WP_PGBENCH_APPNAME		WP_LOAD_APPNAME_PGBENCH
#define WP_PGBENCH_END_WAIT_S	15	/* and may take this long to end */
#define WP_PGBENCH_EARLY_MS		500 /* an end this early is not -T's */
#define WP_TMP_MIN_FREE_MB		256 /* free space kept on the logs' tmpfs */
#define WP_BACKENDS_EXIT_MS		5000	/* pgbench's backends may take this to go */
#define WP_BACKENDS_CUT_MS		1000	/* ... this, when the step was cut short */

/* The pgbench of this step. */
static pid_t wp_pid = 0;			/* its process (and group), 0: none */
static int	wp_status = 0;			/* its wait status once it ended */
static bool wp_ended = false;
static TimestampTz wp_planned_end = 0;	/* when its -T runs out */
static char wp_dir[MAXPGPATH] = "";		/* its private directory */
static bool wp_exit_hook = false;
static int	wp_clients_n = 0;		/* its clients */
static double wp_limit_ms = 0;	/* its --latency-limit, 0: none */
static double wp_final_cpu = -1;	/* its CPU seconds, once reaped */
static char wp_lost_note[1024] = "";	/* why it was not clean, "": it was */
static Oid	wp_role = InvalidOid;	/* the role its connections run as */

/* ---------- where and how ---------- */

/*
 * Is the file system of pgbench's logs nearly full?  On tmpfs they are
 * memory, which the server's shared memory (/dev/shm) needs too.
 */
static bool
wp_tmp_low(void)
{
	struct statvfs st;

	if (statvfs(wp_tmp_root(), &st) != 0)
		return false;
	return (double) st.f_bavail * st.f_frsize < WP_TMP_MIN_FREE_MB * 1024.0 * 1024.0;
}





/* ---------- the process ---------- */

/* However this process leaves, pgbench and its directory go too. */
static void
wp_pgbench_exit(int code, Datum arg)
{
	int			status;

	if (wp_pid > 0 && !wp_ended)
		wp_kill_group(wp_pid, &status);
	wp_pid = 0;
	if (wp_dir[0] != '\0')
		wp_remove_dir(wp_dir);
	wp_dir[0] = '\0';
}

/* ---------- the engine ---------- */

/*
 * The names pgbench connects with, looked up in a transaction of their own
 * (the coordinator runs its steps outside one), into the caller's context.
 */
static void
wp_names(const WpLoadSpec *spec, char **role, char **db, bool *superuser_role)
{
	MemoryContext cxt = CurrentMemoryContext;
	bool		xact = !IsTransactionState();
	char	   *r;
	char	   *d;

	if (xact)
		StartTransactionCommand();
	r = GetUserNameFromId(spec->roleoid, false);
	d = get_database_name(spec->dboid);
	*superuser_role = superuser_arg(spec->roleoid);
	*role = MemoryContextStrdup(cxt, r);
	*db = MemoryContextStrdup(cxt, d ? d : "");
	if (xact)
		CommitTransactionCommand();
	MemoryContextSwitchTo(cxt);
}

static void
wp_pgbench_start(const WpLoadSpec *spec, double run_s)
{
	char	   *role;
	char	   *db;
	bool		superuser_role;
	char	   *socket = wp_socket_dir();
	/*
	 * -T counts from pgbench's own start, which is after ours: it ends a few
	 * milliseconds after the window (on whole seconds, up to a second after
	 * a fractional one), and its end at -T (exit status 0) is not early.
	 */
	int			seconds = Max(1, (int) ceil(run_s - 0.001));

	wp_pgbench_exit(0, 0);		/* the last step's directory */
	if (!wp_exit_hook)
	{
		before_shmem_exit(wp_pgbench_exit, 0);
		wp_remove_stale_program_dirs();
		wp_exit_hook = true;
	}
	if (socket == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("the pgbench engine needs a Unix socket, and unix_socket_directories is empty")));
	wp_names(spec, &role, &db, &superuser_role);
	wp_role = spec->roleoid;
	wp_program_dir("pgbench", wp_dir);
	wp_pid = wp_pgbench_spawn(spec, seconds, wp_dir, socket, role, db, superuser_role);
	wp_ended = false;
	wp_status = 0;
	wp_clients_n = spec->clients;
	wp_limit_ms = spec->latency_limit_ms;
	wp_final_cpu = -1;
	wp_lost_note[0] = '\0';
	wp_planned_end = TimestampTzPlusMilliseconds(GetCurrentTimestamp(), seconds * 1000);
}

/*
 * Why this step's pgbench was not clean, in its own words: `what` it did,
 * how it ended, how many clients it lost, the end of its stderr.  A pgbench
 * that lost every client fails the step.
 */
static void
wp_pgbench_note(const char *what)
{
	FILE	   *f = AllocateFile(psprintf("%s/stderr", wp_dir), "r");
	uint8	   *seen = palloc0(wp_clients_n / 8 + 1);
	int			aborted = 0;
	char		line[1024];
	char	   *tail[8] = {0};	/* its last lines that report an error */
	int			ntail = 0;
	StringInfoData note;

	/* pgbench: "client N aborted while ...", "client N script M aborted ..." */
	while (f != NULL && fgets(line, sizeof(line), f) != NULL)
	{
		char	   *p = strstr(line, "client ");

		if (strstr(line, "error") || strstr(line, "aborted"))
		{
			if (tail[ntail % lengthof(tail)] != NULL)
				pfree(tail[ntail % lengthof(tail)]);
			tail[ntail++ % lengthof(tail)] = pstrdup(line);
		}
		if (p == NULL || !isdigit((unsigned char) p[7]))
			continue;
		{
			long		id = strtol(p + 7, &p, 10);

			if (strncmp(p, " script ", 8) == 0)
				(void) strtol(p + 8, &p, 10);
			/* each client once, whatever else the line echoes */
			if (strncmp(p, " aborted", 8) == 0 && id >= 0 && id < wp_clients_n &&
				!(seen[id / 8] & (1 << (id % 8))))
			{
				seen[id / 8] |= 1 << (id % 8);
				aborted++;
			}
		}
	}
	if (f != NULL)
		FreeFile(f);

	initStringInfo(&note);
	appendStringInfo(&note, "pgbench %s (%s %d)", what,
					 WIFEXITED(wp_status) ? "exit status" : "signal",
					 WIFEXITED(wp_status) ? WEXITSTATUS(wp_status) : WTERMSIG(wp_status));
	if (aborted > 0)
		appendStringInfo(&note, ", %d of %d clients aborted", aborted, wp_clients_n);
	for (int k = Max(0, ntail - 3); k < ntail; k++)
	{
		char	   *l = tail[k % lengthof(tail)];

		l[strcspn(l, "\n")] = '\0';
		appendStringInfo(&note, "%s%s", k == Max(0, ntail - 3) ? ": " : "\n", l);
	}
	wp_make_valid(note.data);
	strlcpy(wp_lost_note, note.data, sizeof(wp_lost_note));
	wp_make_valid(wp_lost_note);	/* strlcpy may have cut a character */

	/* no client ran on: the workload fails at this step, nothing to keep */
	if (aborted >= wp_clients_n)
		ereport(ERROR,
				(errcode(ERRCODE_EXTERNAL_ROUTINE_EXCEPTION),
				 errmsg("pgbench lost all its clients"),
				 errdetail("%s", wp_lost_note),
				 errhint("Every client stopped on an error: the workload fails with this step's settings.")));
}

/*
 * Has pgbench ended before its time?  Then the step is cut short and
 * marked: false.
 */
static bool
wp_pgbench_check(void)
{
	if (wp_pid <= 0)
		return true;
	if (wp_ended)
		return wp_lost_note[0] == '\0';
	if (wp_reap_cpu(wp_pid, &wp_status, &wp_final_cpu))
	{
		wp_ended = true;
		/* its -T ran out with the window (a few ms either side of it) */
		if (WIFEXITED(wp_status) && WEXITSTATUS(wp_status) == 0 &&
			GetCurrentTimestamp() >= TimestampTzPlusMilliseconds(wp_planned_end, -WP_PGBENCH_EARLY_MS))
			return true;
		wp_pgbench_note(WIFEXITED(wp_status) && WEXITSTATUS(wp_status) == 2 ?
						"lost clients during the step" : "ended before the step did");
		return false;
	}
	/* its logs live in memory: never let them starve the server's */
	if (wp_tmp_low())
	{
		wp_kill_group(wp_pid, &wp_status);
		wp_ended = true;
		wp_pgbench_note(psprintf("was stopped: its logs left less than %d MB free in %s",
								 WP_TMP_MIN_FREE_MB, wp_tmp_root()));
		return false;
	}
	return true;
}

/* pgbench's server-side statistics cannot be forced out: nothing to do. */
static bool
wp_pgbench_flush(WpWaitFn wait)
{
	return true;
}

/* pgbench's counts are known once it has ended (wp_pgbench_resolve). */
static void
wp_pgbench_read(WpLoadTotals *totals)
{
	memset(totals, 0, sizeof(WpLoadTotals));
}

/*
 * pgbench has ended: its backends flush their statistics as they exit, and
 * the server's figures are read after they have gone.  One still there
 * after `grace_ms` runs on without its client (the caller's statement: a
 * sleep, a loop that notices no lost connection) and is terminated, as
 * pg_terminate_backend() would, so that nothing of the load outlives its
 * step.
 */
static void
wp_pgbench_backends_gone(int grace_ms)
{
	for (int waited = 0; OidIsValid(wp_role) && wp_load_backends(wp_role, false, false) > 0;
		 waited += 10)
	{
		if (waited == grace_ms)
			(void) wp_load_backends(wp_role, false, true);
		if (waited >= grace_ms + WP_BACKENDS_EXIT_MS)
		{
			ereport(WARNING,
					(errmsg("walpressure: %d pgbench connections of the sweep's role did not end",
							wp_load_backends(wp_role, false, false))));
			break;
		}
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 10, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
}

/*
 * Stop pgbench.  With finish, let it end as planned: one that does not end
 * in time is killed, and one that lost clients (exit status 2: the others
 * ran on) or failed marks the step.
 */
static void
wp_pgbench_stop(bool finish)
{
	if (wp_pid <= 0)
		return;
	if (!wp_ended && finish)
	{
		TimestampTz deadline = TimestampTzPlusMilliseconds(wp_planned_end,
														   WP_PGBENCH_END_WAIT_S * 1000);

		while (!(wp_ended = wp_reap_cpu(wp_pid, &wp_status, &wp_final_cpu)) &&
			   GetCurrentTimestamp() < deadline)
		{
			(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
							 50, PG_WAIT_EXTENSION);
			ResetLatch(MyLatch);
			CHECK_FOR_INTERRUPTS();
		}
		if (!wp_ended)
		{
			wp_kill_group(wp_pid, &wp_status);
			wp_ended = true;
			wp_pgbench_note("did not end in time and was killed");
		}
		else if (wp_lost_note[0] == '\0' &&
				 !(WIFEXITED(wp_status) && WEXITSTATUS(wp_status) == 0))
			wp_pgbench_note(WIFEXITED(wp_status) && WEXITSTATUS(wp_status) == 2 ?
							"lost clients during the step" : "failed");

		wp_pgbench_backends_gone(WP_BACKENDS_EXIT_MS);
		return;
	}
	if (!wp_ended)
	{
		wp_kill_group(wp_pid, &wp_status);
		wp_ended = true;
	}
	if (!finish)
	{
		wp_pgbench_exit(0, 0);
		wp_pgbench_backends_gone(WP_BACKENDS_CUT_MS);
	}
}

/* End pgbench now; its logs keep what it did (stop(true) reads them). */
static void
wp_pgbench_cut(void)
{
	if (wp_pid > 0 && !wp_ended)
	{
		wp_kill_group(wp_pid, &wp_status);
		wp_ended = true;
	}
}

static const char *
wp_pgbench_lost(void)
{
	return wp_lost_note[0] ? wp_lost_note : NULL;
}

/* pgbench's CPU seconds so far, all its threads (once reaped: its total). */
static double
wp_pgbench_cpu_s(void)
{
	if (wp_pid <= 0)
		return -1;
	return wp_ended ? wp_final_cpu : wp_process_cpu_s(wp_pid);
}

/* The window's figures, from pgbench's per-transaction logs (pgbench_log.c). */
static void
wp_pgbench_resolve(TimestampTz start, TimestampTz end, WpLoadTotals *window,
				   const TimestampTz *marks, int nmarks, WpLoadSecond *seconds)
{
	wp_pgbench_log_read(wp_dir, start, end, wp_limit_ms, window, marks, nmarks, seconds);
}

const WpLoadEngine wp_pgbench_engine = {
	.name = "pgbench",
	.start = wp_pgbench_start,
	.check = wp_pgbench_check,
	.flush = wp_pgbench_flush,
	.read = wp_pgbench_read,
	.stop = wp_pgbench_stop,
	.cut = wp_pgbench_cut,
	.resolve = wp_pgbench_resolve,
	.lost = wp_pgbench_lost,
	.cpu_s = wp_pgbench_cpu_s,
};

/* ---------- before anything starts ---------- */


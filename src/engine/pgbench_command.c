/*-------------------------------------------------------------------------
 *
 * pgbench_command.c
 *		How this server's pgbench is started for a step: found next to the
 *		running postgres binary, connected over the server's first Unix
 *		socket with one quoted connection string (no database name can pass
 *		for one of its own), the step's session settings through PGOPTIONS
 *		(each byte that could end an option escaped), nothing through a
 *		shell, its script and logs in a private directory.
 *
 * IDENTIFICATION
 *	  src/engine/pgbench_command.c
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

#define WP_PGBENCH_APPNAME		WP_LOAD_APPNAME_PGBENCH

/* This server's pgbench, next to the postgres binary that runs. */
char *
wp_pgbench_path(void)
{
	char		path[MAXPGPATH];

	strlcpy(path, my_exec_path, MAXPGPATH);
	get_parent_directory(path);
	return psprintf("%s/pgbench", path);
}

/* The first of unix_socket_directories, or NULL. */
char *
wp_socket_dir(void)
{
	char	   *raw = pstrdup(Unix_socket_directories ? Unix_socket_directories : "");
	List	   *dirs;

	if (!SplitDirectoriesString(raw, ',', &dirs) || dirs == NIL)
		return NULL;
	return pstrdup(linitial(dirs));
}

/*
 * One -c option of PGOPTIONS.  The server splits PGOPTIONS at white space
 * (isspace() in its locale) and takes a backslash as "the next byte as it
 * is" (pg_split_opts): every byte that is not a letter, a digit or '_'
 * gets a backslash, so that no value (a search_path holding a tab, say)
 * can end its option and start another.
 */
static void
wp_append_option(StringInfo out, const char *name, const char *value)
{
	appendStringInfo(out, "%s-c ", out->len > 0 ? " " : "");
	for (const char *s = name;; s = value)
	{
		for (const unsigned char *p = (const unsigned char *) s; *p; p++)
		{
			if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
				  (*p >= '0' && *p <= '9') || *p == '_'))
				appendStringInfoChar(out, '\\');
			appendStringInfoChar(out, (char) *p);
		}
		if (s == value)
			break;
		appendStringInfoChar(out, '=');
	}
}

/*
 * A value in a libpq connection string: in single quotes, with a backslash
 * before each quote and backslash.
 */
static void
wp_append_conninfo(StringInfo out, const char *key, const char *value)
{
	appendStringInfo(out, "%s%s='", out->len > 0 ? " " : "", key);
	for (const char *p = value; *p; p++)
	{
		if (*p == '\'' || *p == '\\')
			appendStringInfoChar(out, '\\');
		appendStringInfoChar(out, *p);
	}
	appendStringInfoChar(out, '\'');
}

/* The environment of pgbench: the server's, with our connection settings. */
static const char **
wp_environment(const char *options)
{
	extern char **environ;
	int			n = 0;
	const char **envp;
	int			k = 0;

	for (char **e = environ; *e; e++)
		n++;
	envp = palloc(sizeof(char *) * (n + 4));
	for (char **e = environ; *e; e++)
	{
		/* ours below; nothing inherited may redirect the connection */
		if (strncmp(*e, "PG", 2) == 0)
			continue;
		envp[k++] = *e;
	}
	envp[k++] = psprintf("PGOPTIONS=%s", options);
	envp[k++] = "PGAPPNAME=" WP_PGBENCH_APPNAME;
	envp[k++] = "PGCONNECT_TIMEOUT=10";
	envp[k] = NULL;
	return envp;
}

/*
 * The command line for `spec` lasting `seconds`, in directory `dir`; the
 * script, if any, is written there.
 */
static const char **
wp_command(const WpLoadSpec *spec, int seconds, const char *dir, const char *socket,
		   const char *role, const char *db)
{
	const char **argv = palloc0(sizeof(char *) * 32);
	int			k = 0;
	char	   *script = wp_workload_script(spec);
	long		ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	argv[k++] = wp_pgbench_path();
	argv[k++] = "--no-vacuum";
	argv[k++] = psprintf("--client=%d", spec->clients);
	argv[k++] = psprintf("--jobs=%ld", Max(1, Min((long) spec->clients, ncpu > 0 ? ncpu : 1)));
	if (spec->protocol[0] != '\0')
		argv[k++] = psprintf("--protocol=%s", spec->protocol);
	/* open loop: Poisson arrivals at the rate, each logged with its lag */
	if (seconds > 0 && spec->rate > 0)
		argv[k++] = psprintf("--rate=%.17g", spec->rate);
	if (seconds > 0 && spec->latency_limit_ms > 0)
		argv[k++] = psprintf("--latency-limit=%.17g", spec->latency_limit_ms);
	if (seconds > 0)
	{
		argv[k++] = psprintf("--time=%d", seconds);
		argv[k++] = "--log";
		argv[k++] = psprintf("--log-prefix=%s/log", dir);
	}
	else
	{
		/*
		 * The preflight: one transaction of a script with no SQL, so pgbench
		 * connects and parses the workload's script (weight 0: never run).
		 */
		char	   *path = psprintf("%s/preflight.sql", dir);

		wp_write_file(path, "\\set walpressure_preflight 1\n");
		argv[k++] = "--transactions=1";
		argv[k++] = psprintf("--file=%s@1", path);
	}
	if (script == NULL)
		argv[k++] = psprintf("--builtin=%s%s", wp_workload_name(spec->workload),
							 seconds > 0 ? "" : "@0");
	else
	{
		char	   *path = psprintf("%s/script.sql", dir);

		wp_write_file(path, script);
		argv[k++] = psprintf("--file=%s%s", path, seconds > 0 ? "" : "@0");
	}
	/*
	 * Where to connect, last, as an operand (no name can pass for an
	 * option): one connection string with every value quoted, since pgbench
	 * reads a database name holding '=' as a connection string of its own
	 * (a database named "dbname=postgres port=..." would redirect the load)
	 */
	{
		StringInfoData conn;

		initStringInfo(&conn);
		wp_append_conninfo(&conn, "host", socket);
		wp_append_conninfo(&conn, "port", psprintf("%d", PostPortNumber));
		wp_append_conninfo(&conn, "user", role);
		wp_append_conninfo(&conn, "dbname", db);
		argv[k++] = "--";
		argv[k++] = conn.data;
	}
	argv[k] = NULL;
	return argv;
}

/* The step's session settings as PGOPTIONS. */
static char *
wp_options(const WpLoadSpec *spec, bool superuser_role)
{
	StringInfoData o;

	initStringInfo(&o);
	/* fsync latency per commit needs WAL I/O timing: a superuser's setting */
	if (superuser_role)
		wp_append_option(&o, "track_wal_io_timing", "on");
	/* the probe tells this step's leaders, on 18 too (commit_probe.c) */
	wp_append_option(&o, "walpressure.exact_leaders", "on");
	if (spec->search_path[0] != '\0')
		wp_append_option(&o, "search_path", spec->search_path);
	for (int i = 0; i < spec->nsettings; i++)
		wp_append_option(&o, spec->settings[i].name, spec->settings[i].value);
	return o.data;
}

/*
 * Start this server's pgbench for `spec` lasting `seconds` (0: the
 * preflight, which only connects and parses the script), in private
 * directory `dir`, connecting over `socket` as `role` to `db`.
 */
pid_t
wp_pgbench_spawn(const WpLoadSpec *spec, int seconds, const char *dir, const char *socket,
				 const char *role, const char *db, bool superuser_role)
{
	return wp_spawn(wp_command(spec, seconds, dir, socket, role, db),
					wp_environment(wp_options(spec, superuser_role)), dir);
}


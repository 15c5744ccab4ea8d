/*-------------------------------------------------------------------------
 *
 * cgroup_procs.c
 *		The server's processes and the cgroup of the cap: which of them
 *		are in it, and moving them all (the postmaster first, so that every
 *		process it forks next is born in it).
 *
 * IDENTIFICATION
 *	  src/system/cgroup_procs.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <dirent.h>
#include <fcntl.h>
#include <libcgroup.h>
#include <limits.h>
#include <pwd.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "common/string.h"
#include "miscadmin.h"
#include "postmaster/postmaster.h"
#include "storage/fd.h"

#include "system/cgroup.h"

/*
 * Is process `pid` in the cgroup?  From /proc/PID/cgroup.
 */
static bool
wp_pid_in_cgroup(WpCgroupMode mode, pid_t pid)
{
	char		path[64];
	char		line[1024];
	FILE	   *f;
	bool		found = false;
	char	   *want = psprintf(":blkio:/%s", wp_cgroup_name);

	/* v2: the cgroup lists its processes */
	if (mode == WP_CG_V2)
		return wp_file_has_word(psprintf("%s/cgroup.procs", wp_cg2_dir()),
								psprintf("%d", (int) pid));

	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int) pid);
	f = fopen(path, "r");
	if (f == NULL)
		return false;
	while (!found && fgets(line, sizeof(line), f))
	{
		pg_strip_crlf(line);
		found = strstr(line, want) != NULL &&
			strcmp(strstr(line, want), want) == 0;
	}
	fclose(f);
	return found;
}

/*
 * The server's processes: the postmaster and its children.
 */
List *
wp_server_pids(void)
{
	List	   *pids = list_make1_int(PostmasterPid);
	DIR		   *proc = AllocateDir("/proc");
	struct dirent *de;

	while ((de = ReadDir(proc, "/proc")) != NULL)
	{
		char		path[64];
		char		stat[512];
		FILE	   *f;
		char	   *close;
		int			ppid;

		if (!isdigit((unsigned char) de->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		f = fopen(path, "r");
		if (f == NULL)
			continue;
		if (fgets(stat, sizeof(stat), f) != NULL &&
			(close = strrchr(stat, ')')) != NULL &&
			sscanf(close + 2, "%*c %d", &ppid) == 1 && ppid == PostmasterPid)
			pids = lappend_int(pids, atoi(de->d_name));
		fclose(f);
	}
	FreeDir(proc);
	return pids;
}

/*
 * Move every server process into the cgroup (the postmaster first, so the
 * processes it starts from now on are born there).  Returns how many are in.
 */
/*
 * cgroup v2: move the server's processes by writing their pids to the
 * cgroup's cgroup.procs.  The kernel lets the server's user do that only
 * from a cgroup within the delegated subtree (the hint says to start the
 * server inside it); a refusal for the postmaster is an ERROR.
 */
static int
wp_cg2_enroll(void)
{
	int			in = 0;
	ListCell   *lc;

	foreach(lc, wp_server_pids())
	{
		pid_t		pid = lfirst_int(lc);
		MemoryContext cxt = CurrentMemoryContext;

		if (wp_pid_in_cgroup(WP_CG_V2, pid))
		{
			in++;
			continue;
		}
		PG_TRY();
		{
			wp_cg2_write("cgroup.procs", psprintf("%d\n", (int) pid));
			in++;
		}
		PG_CATCH();
		{
			ErrorData  *edata;

			if (pid == PostmasterPid)
			{
				MemoryContextSwitchTo(cxt);
				edata = CopyErrorData();
				FlushErrorState();
				ereport(ERROR,
						(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
						 errmsg("could not move the postmaster (pid %d) into cgroup io:/%s: %s",
								(int) pid, wp_cgroup_name, edata->message),
						 errhint("%s", wp_cgcreate_hint(WP_CG_V2))));
			}
			/* a child that exited meanwhile */
			MemoryContextSwitchTo(cxt);
			FlushErrorState();
		}
		PG_END_TRY();
	}
	return in;
}

int
wp_cgroup_enroll(WpCgroupMode mode)
{
	struct cgroup *cg;
	int			in = 0;
	ListCell   *lc;

	if (mode == WP_CG_V2)
		return wp_cg2_enroll();
	cg = cgroup_new_cgroup(wp_cgroup_name);
	if (cg == NULL || cgroup_add_controller(cg, wp_controller(mode)) == NULL)
		elog(ERROR, "libcgroup: out of memory");
	foreach(lc, wp_server_pids())
	{
		pid_t		pid = lfirst_int(lc);
		int			rc;

		if (wp_pid_in_cgroup(mode, pid))
		{
			in++;
			continue;
		}
		rc = cgroup_attach_task_pid(cg, pid);
		if (rc == 0)
			in++;
		else if (pid == PostmasterPid)
		{
			cgroup_free(&cg);
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("could not move the postmaster (pid %d) into cgroup %s:/%s: %s",
							(int) pid, wp_controller(mode), wp_cgroup_name, cgroup_strerror(rc)),
					 errhint("%s", wp_cgcreate_hint(mode))));
		}
		/* else: a child that exited meanwhile */
	}
	cgroup_free(&cg);
	return in;
}

/*
 * Is this process in the cgroup?
 */
bool
wp_cgroup_self_enrolled(WpCgroupMode mode)
{
	return wp_pid_in_cgroup(mode, MyProcPid);
}

/*
 * How many server processes are in the cgroup, of how many.
 */
void
wp_cgroup_enrolled(WpCgroupMode mode, int *in, int *total)
{
	ListCell   *lc;

	*in = *total = 0;
	foreach(lc, wp_server_pids())
	{
		(*total)++;
		if (wp_pid_in_cgroup(mode, lfirst_int(lc)))
			(*in)++;
	}
}


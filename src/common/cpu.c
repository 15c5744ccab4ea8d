/*-------------------------------------------------------------------------
 *
 * cpu.c
 *		CPU time (user + system) from /proc/<pid>/stat.
 *
 * A process's own time covers all its threads (pgbench -j N is one
 * process).  The server's time is the postmaster's own, its children's
 * that have exited and been reaped (cutime + cstime, which the kernel adds
 * to the postmaster at each wait), and that of its live children: the
 * difference between two readings is then exactly the CPU the server spent
 * in between, whether its backends lived through the interval, started in
 * it or exited in it.  A program a backend started (pgbench under the
 * coordinator) is that backend's child, not the postmaster's: it is not in
 * the server's time until the backend that reaped it exits.
 *
 * IDENTIFICATION
 *	  src/common/cpu.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <dirent.h>
#include <unistd.h>

#include "miscadmin.h"

#include "common/cpu.h"

/*
 * Fields of /proc/<pid>/stat after the command name: ppid, utime, stime,
 * cutime, cstime in clock ticks.  False when the process is gone.
 */
static bool
wp_read_stat(pid_t pid, pid_t *ppid, double *own, double *children)
{
	char		path[64];
	char		buf[1024];
	FILE	   *f;
	size_t		n;
	char	   *p;
	long		pp;
	unsigned long utime,
				stime;
	long		cutime,
				cstime;
	double		tick = (double) sysconf(_SC_CLK_TCK);

	snprintf(path, sizeof(path), "/proc/%d/stat", (int) pid);
	if ((f = fopen(path, "r")) == NULL)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* the name is in parentheses and may hold anything: read after the last */
	if ((p = strrchr(buf, ')')) == NULL)
		return false;
	/* state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime */
	if (sscanf(p + 1, " %*c %ld %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu %ld %ld",
			   &pp, &utime, &stime, &cutime, &cstime) != 5 || tick <= 0)
		return false;
	*ppid = (pid_t) pp;
	*own = (utime + stime) / tick;
	*children = (cutime + cstime) / tick;
	return true;
}

/* One process's CPU seconds so far, all threads; < 0 when it is gone. */
double
wp_process_cpu_s(pid_t pid)
{
	pid_t		ppid;
	double		own,
				children;

	if (pid <= 0 || !wp_read_stat(pid, &ppid, &own, &children))
		return -1;
	return own;
}

/* The server's CPU seconds so far (see the file's comment); < 0: unknown. */
double
wp_server_cpu_s(void)
{
	pid_t		ppid;
	double		own,
				children;
	double		total;
	DIR		   *d;
	struct dirent *e;

	/*
	 * A child reaped between the postmaster's reading and the scan would be
	 * in neither: read the postmaster again after the scan, and scan again
	 * when its reaped children's time moved meanwhile.
	 */
	for (int attempt = 0; attempt < 5; attempt++)
	{
		double		before;
		double		after;
		double		pm_own;

		if (!wp_read_stat(PostmasterPid, &ppid, &pm_own, &before))
			return -1;
		total = 0;
		if ((d = opendir("/proc")) == NULL)
			return -1;
		while ((e = readdir(d)) != NULL)
		{
			char	   *end;
			long		pid = strtol(e->d_name, &end, 10);

			if (*end != '\0' || pid <= 0)
				continue;
			if (wp_read_stat((pid_t) pid, &ppid, &own, &children) && ppid == PostmasterPid)
				total += own;
		}
		closedir(d);
		if (!wp_read_stat(PostmasterPid, &ppid, &own, &after))
			return -1;
		if (after == before)
			return total + own + after;
	}
	return -1;					/* children ending too fast to tell */
}

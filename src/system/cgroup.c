/*-------------------------------------------------------------------------
 *
 * cgroup.c
 *		The disk cap: the cgroup named by walpressure.cgroup, its
 *		write/read IOPS limits on a device (wal_device.c finds pg_wal's),
 *		the server processes enrolled in it, and its IO counters.
 *
 * cgroup v1 (blkio: blkio.throttle.{write,read}_iops_device) is driven
 * through libcgroup; v2 (io: io.max, cgroup.procs, io.stat) through its
 * files in the unified hierarchy, which is all v2 is, so that the tests can
 * lay such a hierarchy out in a directory (WALPRESSURE_CGROUP_FS) on a
 * machine that is not v2.  The server never needs root: root
 * creates the cgroup once and hands it to the postgres user (cgcreate -a
 * postgres:postgres -t postgres:postgres -g blkio:/walpressure); from then
 * on the server sets the limits and moves its own processes.
 *
 * IDENTIFICATION
 *	  src/system/cgroup.c
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

#ifndef CGROUP_SUPER_MAGIC
#define CGROUP_SUPER_MAGIC	0x27e0eb
#endif
#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif

char	   *wp_cgroup_name = NULL;

static bool wp_cgroup_initialized = false;

/*
 * Which cgroup hierarchy holds the IO controller: v2 when /sys/fs/cgroup is
 * the unified hierarchy, v1 when a blkio hierarchy is mounted (hybrid: v1
 * controllers beside an unified mount, the IO controller being v1's).
 */
/*
 * Where the hierarchies are mounted.  The tests point it elsewhere: to an
 * empty directory (no cgroup), or to a cgroup v2 hierarchy laid out in a
 * directory (it has a cgroup.controllers file).
 */
static const char *
wp_cgroup_fs(void)
{
	const char *fs = getenv("WALPRESSURE_CGROUP_FS");

	return fs != NULL && fs[0] != '\0' ? fs : "/sys/fs/cgroup";
}

WpCgroupMode
wp_cgroup_mode(void)
{
	struct statfs fs;
	const char *root = wp_cgroup_fs();

	if (statfs(root, &fs) == 0 && fs.f_type == CGROUP2_SUPER_MAGIC)
		return WP_CG_V2;
	if (getenv("WALPRESSURE_CGROUP_FS") != NULL &&
		access(psprintf("%s/cgroup.controllers", root), F_OK) == 0)
		return WP_CG_V2;		/* a test's laid-out v2 hierarchy */
	if (statfs(psprintf("%s/blkio", root), &fs) == 0 && fs.f_type == CGROUP_SUPER_MAGIC)
	{
		if (statfs(psprintf("%s/unified", root), &fs) == 0 && fs.f_type == CGROUP2_SUPER_MAGIC)
			return WP_CG_HYBRID;
		return WP_CG_V1;
	}
	return WP_CG_NONE;
}

const char *
wp_cgroup_mode_name(WpCgroupMode mode)
{
	switch (mode)
	{
		case WP_CG_V1:
			return "v1";
		case WP_CG_V2:
			return "v2";
		case WP_CG_HYBRID:
			return "hybrid (v1 blkio)";
		default:
			return "none";
	}
}

const char *
wp_controller(WpCgroupMode mode)
{
	return mode == WP_CG_V2 ? "io" : "blkio";
}

/* The one cgcreate command that delegates the cgroup to this server's user. */
char *
wp_cgcreate_hint(WpCgroupMode mode)
{
	struct passwd *pw = getpwuid(geteuid());
	const char *user = pw ? pw->pw_name : "postgres";

	if (mode == WP_CG_V2)
		return psprintf("As root: cgcreate -a %s:%s -t %s:%s -g io:/%s, and start the server inside it "
						"(cgexec -g io:/%s pg_ctl start): on cgroup v2 the server can only move "
						"its processes within a subtree it is already in.",
						user, user, user, user, wp_cgroup_name, wp_cgroup_name);
	return psprintf("As root, once: cgcreate -a %s:%s -t %s:%s -g blkio:/%s",
					user, user, user, user, wp_cgroup_name);
}

/* cgroup v2: the cgroup's directory in the unified hierarchy. */
char *
wp_cg2_dir(void)
{
	return psprintf("%s/%s", wp_cgroup_fs(), wp_cgroup_name);
}

/* Does the line-or-space separated word list in `path` hold `word`? */
bool
wp_file_has_word(const char *path, const char *word)
{
	FILE	   *f = AllocateFile(path, "r");
	char		buf[1024];
	bool		found = false;

	if (f == NULL)
		return false;
	while (!found && fscanf(f, "%1023s", buf) == 1)
		found = strcmp(buf, word) == 0;
	FreeFile(f);
	return found;
}

/*
 * cgroup v2's own checks: the cgroup exists, its parent hands it the io
 * controller (cgroup.subtree_control: that is what creates io.max), and the
 * server's user may write its io.max and cgroup.procs.
 */
static char *
wp_cg2_problem(char **detail, char **hint)
{
	char	   *dir = wp_cg2_dir();
	char	   *parent = pstrdup(dir);
	char	   *slash = strrchr(parent, '/');

	*slash = '\0';
	if (access(dir, F_OK) != 0)
	{
		*hint = wp_cgcreate_hint(WP_CG_V2);
		return psprintf("cgroup io:/%s does not exist", wp_cgroup_name);
	}
	if (!wp_file_has_word(psprintf("%s/cgroup.subtree_control", parent), "io"))
	{
		*detail = psprintf("%s/cgroup.subtree_control does not list io, so the cgroup has no io.max.",
						   parent);
		*hint = psprintf("As root: echo +io > %s/cgroup.subtree_control", parent);
		return psprintf("the io controller is not enabled for cgroup io:/%s", wp_cgroup_name);
	}
	if (access(psprintf("%s/io.max", dir), W_OK) != 0 ||
		access(psprintf("%s/cgroup.procs", dir), W_OK) != 0)
	{
		*detail = psprintf("The server cannot write %s/io.max and %s/cgroup.procs.", dir, dir);
		*hint = wp_cgcreate_hint(WP_CG_V2);
		return psprintf("cgroup io:/%s is not delegated to this server's user", wp_cgroup_name);
	}
	return NULL;
}

/* cgroup v2: write `text` to the cgroup's file `name`. */
void
wp_cg2_write(const char *name, const char *text)
{
	char	   *path = psprintf("%s/%s", wp_cg2_dir(), name);
	int			fd = OpenTransientFile(path, O_WRONLY | O_APPEND);
	int			len = strlen(text);

	if (fd < 0)
		ereport(ERROR,
				(errcode(ERRCODE_SYSTEM_ERROR),
				 errmsg("could not open \"%s\": %m", path)));
	if (write(fd, text, len) != len)
	{
		int			save = errno;

		CloseTransientFile(fd);
		errno = save;
		ereport(ERROR,
				(errcode(ERRCODE_SYSTEM_ERROR),
				 errmsg("could not write \"%s\" to \"%s\": %m", text, path)));
	}
	CloseTransientFile(fd);
}

/*
 * What stands between this server and capping IOPS through
 * walpressure.cgroup: NULL when nothing, else the problem, with its detail
 * and the fix.  Sets *mode.
 */
char *
wp_cgroup_problem(WpCgroupMode *mode, char **detail, char **hint)
{
	char	   *mount = NULL;
	char	   *dir;
	const char *limits;
	const char *tasks;
	int			rc;

	*mode = wp_cgroup_mode();
	*detail = *hint = NULL;
	if (*mode == WP_CG_NONE)
	{
		*detail = "Neither /sys/fs/cgroup (cgroup v2) nor /sys/fs/cgroup/blkio (cgroup v1) is a cgroup file system.";
		*hint = "Mount the cgroup file system; walpressure caps IOPS through cgroup v1 blkio or v2 io.";
		return "no cgroup hierarchy with an IO controller is mounted";
	}
	if (*mode == WP_CG_V2)
		return wp_cg2_problem(detail, hint);
	if (!wp_cgroup_initialized)
	{
		rc = cgroup_init();
		if (rc != 0)
			return psprintf("libcgroup cannot use the cgroup hierarchy: %s", cgroup_strerror(rc));
		wp_cgroup_initialized = true;
	}
	rc = cgroup_get_subsys_mount_point(wp_controller(*mode), &mount);
	if (rc != 0 || mount == NULL)
		return psprintf("the %s controller is not mounted: %s", wp_controller(*mode),
						cgroup_strerror(rc));

	dir = psprintf("%s/%s", mount, wp_cgroup_name);
	free(mount);
	limits = *mode == WP_CG_V2 ? "io.max" : "blkio.throttle.write_iops_device";
	tasks = *mode == WP_CG_V2 ? "cgroup.procs" : "tasks";
	if (access(dir, F_OK) != 0)
	{
		*hint = wp_cgcreate_hint(*mode);
		return psprintf("cgroup %s:/%s does not exist", wp_controller(*mode), wp_cgroup_name);
	}
	if (access(psprintf("%s/%s", dir, limits), W_OK) != 0 ||
		access(psprintf("%s/%s", dir, tasks), W_OK) != 0)
	{
		*detail = psprintf("The server cannot write %s/%s and %s/%s.", dir, limits, dir, tasks);
		*hint = wp_cgcreate_hint(*mode);
		return psprintf("cgroup %s:/%s is not delegated to this server's user",
						wp_controller(*mode), wp_cgroup_name);
	}
	return NULL;
}

/*
 * The cgroup mode, after checking that the cap can be set; ERROR with the
 * fix otherwise.
 */
WpCgroupMode
wp_cgroup_check(void)
{
	WpCgroupMode mode;
	char	   *detail;
	char	   *hint;
	char	   *problem = wp_cgroup_problem(&mode, &detail, &hint);

	if (problem != NULL)
		ereport(ERROR,
				(errcode(mode == WP_CG_NONE ? ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE
						 : ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("%s", problem),
				 detail ? errdetail("%s", detail) : 0,
				 hint ? errhint("%s", hint) : 0));
	return mode;
}

/*
 * Set the device's limits in the cgroup; 0 removes a limit.
 */
void
wp_cgroup_set_limits(WpCgroupMode mode, WpDevice dev, int64 write_iops, int64 read_iops)
{
	struct cgroup *cg;
	struct cgroup_controller *ctl;
	int			rc;

	if (mode == WP_CG_V2)
	{
		/* one line for the device: the kernel keeps the other devices' */
		wp_cg2_write("io.max",
					 psprintf("%u:%u riops=%s wiops=%s\n", dev.major, dev.minor,
							  read_iops > 0 ? psprintf(INT64_FORMAT, read_iops) : "max",
							  write_iops > 0 ? psprintf(INT64_FORMAT, write_iops) : "max"));
		return;
	}
	cg = cgroup_new_cgroup(wp_cgroup_name);
	if (cg == NULL || (ctl = cgroup_add_controller(cg, wp_controller(mode))) == NULL)
		elog(ERROR, "libcgroup: out of memory");
	rc = cgroup_set_value_string(ctl, "blkio.throttle.write_iops_device",
								 psprintf("%u:%u " INT64_FORMAT, dev.major, dev.minor, write_iops));
	if (rc == 0)
		rc = cgroup_set_value_string(ctl, "blkio.throttle.read_iops_device",
									 psprintf("%u:%u " INT64_FORMAT, dev.major, dev.minor, read_iops));
	if (rc == 0)
		rc = cgroup_modify_cgroup(cg);
	cgroup_free(&cg);
	if (rc != 0)
		ereport(ERROR,
				(errcode(ERRCODE_SYSTEM_ERROR),
				 errmsg("could not set the IOPS limits of %u:%u in cgroup %s:/%s: %s",
						dev.major, dev.minor, wp_controller(mode), wp_cgroup_name,
						cgroup_strerror(rc))));

	/*
	 * Read them back: libcgroup 3 (Debian 13) reports success for a value
	 * it could not write (a file the server's user may not write), which
	 * would leave a cap in place without a word.
	 */
	{
		int64		w;
		int64		r;

		wp_cgroup_get_limits(mode, dev, &w, &r);
		if (w != write_iops || r != read_iops)
			ereport(ERROR,
					(errcode(ERRCODE_SYSTEM_ERROR),
					 errmsg("could not set the IOPS limits of %u:%u in cgroup %s:/%s: it still reads " INT64_FORMAT " write and " INT64_FORMAT " read IOPS",
							dev.major, dev.minor, wp_controller(mode), wp_cgroup_name, w, r),
					 errhint("Check that the server's user may write the cgroup's files (ls -l /sys/fs/cgroup/blkio/%s).",
							 wp_cgroup_name)));
	}
}

/*
 * Read one line-oriented value of the cgroup into lines (NULL if none).
 */
static List *
wp_cgroup_read_lines(WpCgroupMode mode, const char *name)
{
	void	   *handle = NULL;
	char		buf[256];
	List	   *lines = NIL;
	int			rc;

	if (mode == WP_CG_V2)
	{
		FILE	   *f = AllocateFile(psprintf("%s/%s", wp_cg2_dir(), name), "r");

		if (f == NULL)
			return NIL;
		while (fgets(buf, sizeof(buf), f) != NULL)
		{
			pg_strip_crlf(buf);
			if (buf[0] != '\0')
				lines = lappend(lines, pstrdup(buf));
		}
		FreeFile(f);
		return lines;
	}
	rc = cgroup_read_value_begin(wp_controller(mode), wp_cgroup_name,
								 (char *) name, &handle, buf, sizeof(buf));
	while (rc == 0)
	{
		pg_strip_crlf(buf);
		if (buf[0] != '\0')
			lines = lappend(lines, pstrdup(buf));
		rc = cgroup_read_value_next(&handle, buf, sizeof(buf));
	}
	if (handle)
		cgroup_read_value_end(&handle);
	return lines;
}

/*
 * The limits set for `dev` in the cgroup (0: none).
 */
void
wp_cgroup_get_limits(WpCgroupMode mode, WpDevice dev, int64 *write_iops, int64 *read_iops)
{
	ListCell   *lc;

	*write_iops = *read_iops = 0;
	if (mode == WP_CG_V2)
	{
		foreach(lc, wp_cgroup_read_lines(mode, "io.max"))
		{
			WpDevice	d;
			char	   *line = lfirst(lc);
			char	   *sp = strchr(line, ' ');
			char	   *w;
			char	   *r;

			if (sp == NULL)
				continue;
			*sp = '\0';
			if (!wp_parse_device(line, &d) || d.major != dev.major || d.minor != dev.minor)
				continue;
			/* "max" is no limit; a later line for the device wins */
			if ((w = strstr(sp + 1, "wiops=")) != NULL)
				*write_iops = strncmp(w + 6, "max", 3) == 0 ? 0 : strtoll(w + 6, NULL, 10);
			if ((r = strstr(sp + 1, "riops=")) != NULL)
				*read_iops = strncmp(r + 6, "max", 3) == 0 ? 0 : strtoll(r + 6, NULL, 10);
		}
		return;
	}
	for (int which = 0; which < 2; which++)
	{
		foreach(lc, wp_cgroup_read_lines(mode, which == 0 ? "blkio.throttle.write_iops_device"
										 : "blkio.throttle.read_iops_device"))
		{
			unsigned	maj;
			unsigned	min;
			long long	v;

			if (sscanf(lfirst(lc), "%u:%u %lld", &maj, &min, &v) == 3 &&
				maj == dev.major && min == dev.minor)
				*(which == 0 ? write_iops : read_iops) = v;
		}
	}
}

/*
 * IOs the cgroup's processes issued to `dev` (cumulative).  False if the
 * cgroup has no counters for it.
 */
bool
wp_cgroup_ios(WpCgroupMode mode, WpDevice dev, uint64 *reads, uint64 *writes)
{
	ListCell   *lc;
	bool		found = false;

	*reads = *writes = 0;
	foreach(lc, wp_cgroup_read_lines(mode, mode == WP_CG_V2 ? "io.stat"
									 : "blkio.throttle.io_serviced"))
	{
		char	   *line = lfirst(lc);
		unsigned	maj;
		unsigned	min;
		char		op[16];
		unsigned long long v;

		if (mode == WP_CG_V2)
		{
			char	   *p;

			if (sscanf(line, "%u:%u", &maj, &min) != 2 || maj != dev.major || min != dev.minor)
				continue;
			if ((p = strstr(line, "rios=")) != NULL)
				*reads = strtoull(p + 5, NULL, 10);
			if ((p = strstr(line, "wios=")) != NULL)
				*writes = strtoull(p + 5, NULL, 10);
			found = true;
		}
		else if (sscanf(line, "%u:%u %15s %llu", &maj, &min, op, &v) == 4 &&
				 maj == dev.major && min == dev.minor)
		{
			if (strcmp(op, "Read") == 0)
				*reads = v;
			else if (strcmp(op, "Write") == 0)
				*writes = v;
			found = true;
		}
	}
	return found;
}


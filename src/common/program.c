/*-------------------------------------------------------------------------
 *
 * program.c
 *		A program the server runs on a sweep's behalf (pgbench): started
 *		without a shell, in a process group of its own, with SIGKILL as its
 *		parent-death signal and nothing of the server's open; reaped, or
 *		killed with its group; and the private files around it.
 *
 * IDENTIFICATION
 *	  src/common/program.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "postmaster/postmaster.h"

#include "common/program.h"

#define WP_KILL_WAIT_MS 5000

/* Write `text` to `path`, created for this process's user only. */
void
wp_write_file(const char *path, const char *text)
{
	int			fd = open(path, O_WRONLY | O_CREAT | O_EXCL, S_IRUSR | S_IWUSR);
	Size		len = strlen(text);

	if (fd < 0 || write(fd, text, len) != (ssize_t) len || close(fd) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not write file \"%s\": %m", path)));
}

/* The last `max` bytes of a file, cut to whole lines, for an error. */
char *
wp_file_tail(const char *path, Size max)
{
	int			fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	FILE	   *f = fd < 0 ? NULL : fdopen(fd, "r");
	StringInfoData buf;
	char		chunk[1024];
	size_t		n;
	char	   *start;

	initStringInfo(&buf);
	if (f == NULL)
	{
		if (fd >= 0)
			close(fd);
		return buf.data;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		appendBinaryStringInfo(&buf, chunk, n);
	fclose(f);
	while (buf.len > 0 && buf.data[buf.len - 1] == '\n')
		buf.data[--buf.len] = '\0';
	if ((Size) buf.len <= max)
		return buf.data;
	start = strchr(buf.data + buf.len - max, '\n');
	return pstrdup(start ? start + 1 : buf.data + buf.len - max);
}

/*
 * `dir`, a private directory of this server's OS user in a world-writable,
 * sticky tmpfs (/dev/shm), made if missing: mode 0700, no symbolic link.
 * One that is there already but is not such a directory (another local
 * user made it, or a link) is refused: nothing is ever written or removed
 * through it.
 */
static void
wp_private_dir(const char *dir)
{
	struct stat st;

	if (mkdir(dir, S_IRWXU) != 0 && errno != EEXIST)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not create directory \"%s\": %m", dir)));
	if (lstat(dir, &st) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not stat directory \"%s\": %m", dir)));
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & (S_IRWXG | S_IRWXO)) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("\"%s\" is not a private directory of this server's user", dir),
				 errdetail("walpressure keeps pgbench's logs there; it must be a directory (not a link) owned by the server's operating system user, with mode 0700."),
				 errhint("Remove it; walpressure makes it again.")));
}

/*
 * Remove directory `name` of the directory open as `parentfd`, and the
 * files in it, without following a symbolic link anywhere (the directory
 * itself, or an entry in it) and only when this user owns it.
 */
static void
wp_remove_dir_at(int parentfd, const char *name)
{
	int			fd = openat(parentfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	DIR		   *d;
	struct dirent *e;

	if (fd < 0)
		return;
	if (fstat(fd, &st) != 0 || st.st_uid != geteuid() || (d = fdopendir(fd)) == NULL)
	{
		close(fd);
		return;
	}
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			(void) unlinkat(fd, e->d_name, 0);	/* a link goes, not its target */
	closedir(d);
	(void) unlinkat(parentfd, name, AT_REMOVEDIR);
}

/* Remove a private directory (wp_private_parent's child) and its files. */
void
wp_remove_dir(const char *dir)
{
	char		parent[MAXPGPATH];
	const char *name = strrchr(dir, '/');
	int			pfd;

	if (name == NULL)
		return;
	strlcpy(parent, dir, Min(sizeof(parent), (Size) (name - dir) + 1));
	pfd = open(parent, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (pfd < 0)
		return;
	wp_remove_dir_at(pfd, name + 1);
	close(pfd);
}

/* A tmpfs directory for programs' files: off any disk a cap throttles. */
const char *
wp_tmp_root(void)
{
	struct stat st;

	if (stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) && access("/dev/shm", W_OK) == 0)
		return "/dev/shm";
	return P_tmpdir;
}

/*
 * The private directory of this server (its OS user and port) under the
 * tmpfs root, where each program run gets a directory of its own.  It stays
 * when empty, and must: in the sticky root no other user can remove or
 * replace it while it is there, which is what makes every path below it
 * safe to use once wp_private_dir has checked it; removed, its name would be
 * free again for another user to take (a directory of theirs, that refuses
 * every run after, or a link, between one backend's check and its mkdtemp).
 */
static char *
wp_program_parent(void)
{
	return psprintf("%s/walpressure.%u.%d", wp_tmp_root(), (unsigned) geteuid(), PostPortNumber);
}

/*
 * A private directory for one run of `program` (its name, a word), into
 * `dir` (MAXPGPATH): <parent>/<program>.<pid>.XXXXXX, the parent made
 * private by wp_private_dir.
 */
void
wp_program_dir(const char *program, char *dir)
{
	char	   *parent = wp_program_parent();

	wp_private_dir(parent);
	snprintf(dir, MAXPGPATH, "%s/%s.%d.XXXXXX", parent, program, MyProcPid);
	if (mkdtemp(dir) == NULL)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not create a directory for %s's files in \"%s\": %m",
						program, parent)));
}

/*
 * Remove the directories an earlier run left in the private directory (its
 * process killed with -9, say): "<program>.<pid>.*" of a pid that no longer
 * exists.
 */
void
wp_remove_stale_program_dirs(void)
{
	char	   *parent = wp_program_parent();
	int			pfd = open(parent, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int			dfd;
	DIR		   *d;
	struct dirent *e;

	if (pfd < 0)
		return;
	/* a second descriptor: closedir closes the one it reads */
	dfd = dup(pfd);
	if (dfd < 0 || (d = fdopendir(dfd)) == NULL)
	{
		if (dfd >= 0)
			close(dfd);
		close(pfd);
		return;
	}
	while ((e = readdir(d)) != NULL)
	{
		const char *dot = strchr(e->d_name, '.');
		long		pid;

		if (dot == NULL || dot == e->d_name)
			continue;
		pid = strtol(dot + 1, NULL, 10);
		if (pid <= 0 || (kill((pid_t) pid, 0) != 0 && errno == ESRCH))
			wp_remove_dir_at(pfd, e->d_name);
	}
	closedir(d);
	close(pfd);
}

/*
 * Start `argv` with `envp` in a process group of its own, stdout and
 * stderr into files of `dir`; it dies with this process.  Nothing passes
 * through a shell.
 */
pid_t
wp_spawn(const char *const *argv, const char *const *envp, const char *dir)
{
	pid_t		parent = getpid();
	pid_t		pid;
	char		out[MAXPGPATH];

	snprintf(out, sizeof(out), "%s/stderr", dir);
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_RESOURCES),
				 errmsg("could not start pgbench: %m")));
	if (pid == 0)
	{
		sigset_t	none;
		int			fd;

		/* the child: nothing of the server's, then pgbench */
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		signal(SIGPIPE, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		(void) setpgid(0, 0);
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
			_exit(126);
		fd = open("/dev/null", O_RDONLY);
		if (fd >= 0)
			dup2(fd, 0);
		/* a new file of the new directory: never a link, never one there */
		fd = open(out, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, S_IRUSR | S_IWUSR);
		if (fd < 0 || chdir(dir) != 0)
			_exit(126);
		dup2(fd, 1);
		dup2(fd, 2);
#ifdef SYS_close_range
		(void) syscall(SYS_close_range, 3, ~0U, 0);
#else
		for (int i = 3; i < 1024; i++)
			(void) close(i);
#endif
		execve(argv[0], (char *const *) argv, (char *const *) envp);
		_exit(127);
	}
	/* in both, so that neither a kill nor the child can race the other */
	(void) setpgid(pid, pid);
	return pid;
}

/*
 * Reap the child if it ended; true once it has.  With cpu_s, the CPU
 * seconds it spent, all its threads (set when it was reaped here).
 */
bool
wp_reap_cpu(pid_t pid, int *status, double *cpu_s)
{
	struct rusage ru;
	pid_t		r = wait4(pid, status, WNOHANG, &ru);

	if (r == pid && cpu_s != NULL)
		*cpu_s = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
			ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	return r == pid || (r < 0 && errno == ECHILD);
}

bool
wp_reap(pid_t pid, int *status)
{
	return wp_reap_cpu(pid, status, NULL);
}

/* Kill the group and wait for it; always returns with it gone. */
void
wp_kill_group(pid_t pid, int *status)
{
	(void) kill(-pid, SIGTERM);
	for (int waited = 0; waited < WP_KILL_WAIT_MS; waited += 50)
	{
		if (wp_reap(pid, status))
			goto reaped;
		pg_usleep(50000L);
	}
	(void) kill(-pid, SIGKILL);
	(void) waitpid(pid, status, 0);
reaped:
	/* anything left in its group (it forks nothing; this is a belt) */
	(void) kill(-pid, SIGKILL);
}

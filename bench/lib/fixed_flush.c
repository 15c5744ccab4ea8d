/*
 * bench/lib/fixed_flush.c: a WAL flush of fixed cost, one at a time.
 *
 * A preloaded shim (LD_PRELOAD) for the server's processes: every
 * fdatasync() (the WAL's flush with wal_sync_method = fdatasync, Linux's
 * default, and probe_fsync's) takes the machine-wide lock of the file named
 * by WP_FIXED_FLUSH_FILE (flock), calls the real fdatasync, then sleeps
 * until F microseconds have passed since it started, F being the number
 * written in that file (read at each call, so a bench changes F without a
 * restart; 0 or no file: the real fdatasync alone, no lock).  So flushes are
 * served one at a time, each taking F (or the disk's own time when it is
 * longer): a device whose every flush costs the same, unlike a cgroup
 * throttle, which serves most flushes at the disk's speed and stalls a few
 * for the rest of its 100 ms slice.  Data files' fsync() is untouched.
 *
 * Build: cc -O2 -shared -fPIC -o fixed_flush.so fixed_flush.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

static int	(*real_fdatasync) (int) = NULL;
static int	ctl_fd = -1;
static pid_t ctl_pid = 0;		/* who opened it: a forked child opens its own */

/* F in microseconds, from the control file; 0 when there is none. */
static long
service_us(void)
{
	char		buf[32];
	ssize_t		n;

	/*
	 * flock() locks an open file description, which a fork shares: each
	 * process opens the file itself, so that the lock serves one at a time
	 */
	if (ctl_fd < 0 || ctl_pid != getpid())
	{
		const char *path = getenv("WP_FIXED_FLUSH_FILE");

		if (ctl_fd >= 0)
			close(ctl_fd);
		ctl_fd = -1;
		if (path == NULL || (ctl_fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
			return 0;
		ctl_pid = getpid();
	}
	n = pread(ctl_fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return strtol(buf, NULL, 10);
}

static long
elapsed_us(const struct timespec *a, const struct timespec *b)
{
	return (b->tv_sec - a->tv_sec) * 1000000L + (b->tv_nsec - a->tv_nsec) / 1000;
}

int
fdatasync(int fd)
{
	long		f;
	struct timespec t0,
				t1;
	int			rc;

	if (real_fdatasync == NULL)
		real_fdatasync = (int (*) (int)) dlsym(RTLD_NEXT, "fdatasync");
	f = service_us();
	if (f <= 0)
		return real_fdatasync(fd);
	flock(ctl_fd, LOCK_EX);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rc = real_fdatasync(fd);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	while (elapsed_us(&t0, &t1) < f)
	{
		long		left = f - elapsed_us(&t0, &t1);
		struct timespec ts = {left / 1000000L, (left % 1000000L) * 1000};

		nanosleep(&ts, NULL);
		clock_gettime(CLOCK_MONOTONIC, &t1);
	}
	flock(ctl_fd, LOCK_UN);
	return rc;
}

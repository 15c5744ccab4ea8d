/*-------------------------------------------------------------------------
 *
 * pacer_test.c
 *		Unit test of the paced disk (src/pacer/walpressure_pacer.c) without
 *		PostgreSQL: the shim is compiled into this program, so its write,
 *		fdatasync and the rest are the ones every call here reaches, and
 *		the state is shared with forked children through an anonymous
 *		shared mapping, as the postmaster shares it with the server.
 *		Prints TAP.
 *
 * The shim's source is included, not linked, so that test/run's one build
 * line for every unit test builds this one too:
 *
 *	cc -O2 -Wall -Werror -I src -o pacer_test test/unit/pacer_test.c -lm
 *
 * Files are made in a directory under $TMPDIR (or /tmp), whose filesystem
 * is the paced one; /dev/shm (tmpfs) is another.  It sleeps about 1.5 s in
 * all.  Timings are medians of a few runs, each on an idle disk (a
 * configure call resets the clock), within tolerances that a loaded
 * machine keeps (a sleep may end late, never early).
 *
 * IDENTIFICATION
 *	  test/unit/pacer_test.c
 *
 *-------------------------------------------------------------------------
 */
#include "pacer/walpressure_pacer.c"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/wait.h>

#include "tap.h"

#define MS 1000000.0			/* ns */
#define RUNS 7
#define KB 1024

static WpPacerState *st;
static uint64_t test_dev;
static char dir[256];
static char buf[1024 * KB + 1];

/* ms since an arbitrary start, on the clock the shim uses */
static double
now_ms(void)
{
	return (double) wp_now() / MS;
}

/* st's counter, read as another process would */
static uint64_t
counter(uint64_t *field)
{
	return wp_pacer_get(field);
}

/* ns slept by paced callers so far */
static uint64_t
slept(void)
{
	return counter(&st->sleep_ns);
}

/* got within [lo, hi], said on failure */
static void
within(double got, double lo, double hi, const char *what)
{
	ok(got >= lo && got <= hi, what);
	if (got < lo || got > hi)
		printf("#   got %.3f, want %.3f to %.3f\n", got, lo, hi);
}

/*
 * A paced call that took `ms` and slept `slept_ns` waited for the disk to
 * `want` ms after its arrival: never less, and if it slept, not much more
 * (a call that did not sleep took the real disk's time, which may be more
 * on a loaded machine).
 */
static void
waited(double ms, uint64_t slept_ns, double want, const char *what)
{
	bool		cond = ms >= want - 0.1 && (slept_ns == 0 || ms <= want + 1.5);

	ok(cond, what);
	if (!cond)
		printf("#   took %.3f ms (slept %.3f), want %.3f\n", ms, slept_ns / MS, want);
}

/* New settings on the test directory's filesystem, and an idle disk. */
static void
configure(uint64_t iops, uint64_t floor_ns, uint64_t burst)
{
	wp_pacer_configure(st, iops, WP_PACER_IOS_PER_FLUSH, floor_ns, burst, test_dev);
}

/* A file of the test directory, opened with extra flags. */
static int
open_file(const char *name, int flags)
{
	char		path[512];
	int			fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDWR | O_CREAT | flags, 0600);
	if (fd < 0)
	{
		perror(path);
		exit(2);
	}
	return fd;
}

static int
cmp_double(const void *a, const void *b)
{
	double		x = *(const double *) a;
	double		y = *(const double *) b;

	return (x > y) - (x < y);
}

static double
median(double *v, int n)
{
	qsort(v, n, sizeof(double), cmp_double);
	return v[n / 2];
}

/* ms one fdatasync of fd takes, the disk idle (settings applied again). */
static double
idle_flush_ms(int fd, uint64_t iops, uint64_t floor_ns, uint64_t burst)
{
	double		t;

	configure(iops, floor_ns, burst);
	t = now_ms();
	if (fdatasync(fd) != 0)
		perror("fdatasync");
	return now_ms() - t;
}

/* The median of RUNS idle flushes of fd. */
static double
median_idle_flush_ms(int fd, uint64_t iops, uint64_t floor_ns)
{
	double		v[RUNS];

	for (int i = 0; i < RUNS; i++)
		v[i] = idle_flush_ms(fd, iops, floor_ns, 0);
	return median(v, RUNS);
}

/*
 * IOs charged by writing `bytes` to fd in one pwrite, then fdatasync at
 * 1000 IOPS; the fdatasync's time in *ms and its sleep in *slept_ns.
 */
static uint64_t
ios_of_flush_after(int fd, size_t bytes, double *ms, uint64_t *slept_ns)
{
	uint64_t	before;
	uint64_t	s;
	double		t;

	configure(1000, 0, 0);
	before = counter(&st->ios_charged);
	if (pwrite(fd, buf, bytes, 0) != (ssize_t) bytes)
		perror("pwrite");
	s = slept();
	t = now_ms();
	if (fdatasync(fd) != 0)
		perror("fdatasync");
	if (ms)
		*ms = now_ms() - t;
	if (slept_ns)
		*slept_ns = slept() - s;
	return counter(&st->ios_charged) - before;
}

/* pass-through: detached, refused, iops 0 */
static void
test_pass_through(int fd)
{
	WpPacerState bogus;
	uint64_t	ios = counter(&st->ios_charged);
	double		v[RUNS];

	ok(walpressure_pacer_attach(NULL) == 0, "attach(NULL) detaches");
	configure(1000, 0, 0);
	for (int i = 0; i < RUNS; i++)
	{
		double		t = now_ms();

		if (fdatasync(fd) != 0)
			perror("fdatasync");
		v[i] = now_ms() - t;
	}
	ok(counter(&st->ios_charged) == ios && counter(&st->sleep_ns) == 0,
	   "detached: an fdatasync charges nothing, sleeps not");
	ok(median(v, RUNS) < 2.0, "detached: an fdatasync takes what the disk takes (< 2 ms)");
	errno = 0;
	ok(fdatasync(-1) == -1 && errno == EBADF, "detached: the real fdatasync runs (EBADF on fd -1)");

	memset(&bogus, 0, sizeof(bogus));
	ok(walpressure_pacer_attach(&bogus) == -1, "a state without the magic is refused");
	ok(walpressure_pacer_attach(st) == 1, "the shared state attaches");
	ok(strncmp(walpressure_pacer_version(), "walpressure_pacer 1", 19) == 0,
	   "walpressure_pacer_version names the layout");

	configure(0, 0, 0);
	for (int i = 0; i < RUNS; i++)
	{
		double		t = now_ms();

		if (fdatasync(fd) != 0 || pwrite(fd, buf, 8 * KB, 0) != 8 * KB)
			perror("fdatasync or pwrite");
		v[i] = now_ms() - t;
	}
	ok(counter(&st->ios_charged) == ios && counter(&st->sleep_ns) == 0,
	   "iops 0: nothing charged, no sleep");
	errno = 0;
	ok(fdatasync(-1) == -1 && errno == EBADF, "iops 0: the real fdatasync runs (EBADF on fd -1)");
}

/* the cost of one flush, and of O_DSYNC writes */
static void
test_lone_flush(int fd)
{
	int			dfd = open_file("dsync", O_DSYNC);
	uint64_t	ios;
	uint64_t	flushes;
	double		v[RUNS];
	struct iovec iov = {buf, 8 * KB};

	near(median_idle_flush_ms(fd, 1000, 0), 2.0, 0.5,
		 "a lone fdatasync at 1000 IOPS takes 2 ms (2 IOs)");
	near(median_idle_flush_ms(fd, 500, 0), 4.0, 0.5,
		 "a lone fdatasync at 500 IOPS takes 4 ms");

	ios = counter(&st->ios_charged);
	flushes = counter(&st->flushes_paced);
	for (int i = 0; i < RUNS; i++)
	{
		double		t;

		configure(1000, 0, 0);
		t = now_ms();
		if (pwrite(dfd, buf, 8 * KB, 0) != 8 * KB)
			perror("pwrite");
		v[i] = now_ms() - t;
	}
	near(median(v, RUNS), 2.0, 0.5, "an 8 kB write to an O_DSYNC fd takes 2 ms at 1000 IOPS");
	ok(counter(&st->ios_charged) - ios == 2 * RUNS &&
	   counter(&st->flushes_paced) - flushes == RUNS,
	   "an O_DSYNC write is charged as a flush (2 IOs each)");

	ios = counter(&st->ios_charged);
	configure(1000, 0, 0);
	if (pwritev2(fd, &iov, 1, 0, RWF_DSYNC) != 8 * KB)
		perror("pwritev2");
	ok(counter(&st->ios_charged) - ios == 2, "pwritev2 with RWF_DSYNC is charged as a flush");
	close(dfd);
}

/* the cost of dirty data: 128 kB an IO; writebacks */
static void
test_dirty(int fd)
{
	uint64_t	ios;
	uint64_t	s;
	double		ms;
	double		t;
	struct iovec iov[8];

	ok(ios_of_flush_after(fd, 128 * KB, NULL, NULL) == 2, "128 kB then fdatasync: ios_per_flush (2) IOs");
	ok(ios_of_flush_after(fd, 128 * KB + 1, NULL, NULL) == 3, "128 kB + 1 then fdatasync: 3 IOs");
	ios = ios_of_flush_after(fd, 1024 * KB, &ms, &s);
	ok(ios == WP_PACER_IOS_PER_FLUSH - 1 + 8, "1 MB then fdatasync: ios_per_flush - 1 + 8 IOs");
	waited(ms, s, 9.0, "1 MB then fdatasync at 1000 IOPS takes 9 ms");

	for (int i = 0; i < 8; i++)
	{
		iov[i].iov_base = buf + i * 128 * KB;
		iov[i].iov_len = 128 * KB;
	}
	configure(1000, 0, 0);
	ios = counter(&st->ios_charged);
	if (pwritev(fd, iov, 8, 0) != 1024 * KB || write(fd, buf, 1) != 1 || fdatasync(fd) != 0)
		perror("pwritev, write or fdatasync");
	ok(counter(&st->ios_charged) - ios == 10, "pwritev of 1 MB and write of 1 byte: 1 + 9 IOs at the flush");

	/* sync_file_range: reserved on the clock, no wait */
	configure(1000, 0, 0);
	ios = counter(&st->ios_charged);
	if (pwrite(fd, buf, 1024 * KB, 0) != 1024 * KB)
		perror("pwrite");
	s = slept();
	t = now_ms();
	if (sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE) != 0)
		perror("sync_file_range");
	ok(counter(&st->ios_charged) - ios == 8 && counter(&st->writebacks_paced) == 1,
	   "sync_file_range(WRITE) of 1 MB dirty charges 8 write IOs");
	ok(slept() == s, "sync_file_range(WRITE) does not wait for them");
	if (fdatasync(fd) != 0)
		perror("fdatasync");
	ms = now_ms() - t;
	ok(counter(&st->ios_charged) - ios == 10, "the fdatasync after it costs ios_per_flush");
	waited(ms, slept() - s, 10.0, "the fdatasync after it queues behind the writeback (8 + 2 ms)");

	if (pwrite(fd, buf, 1024 * KB, 0) != 1024 * KB)
		perror("pwrite");
	configure(1000, 0, 0);
	s = slept();
	t = now_ms();
	if (sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER) != 0)
		perror("sync_file_range");
	ms = now_ms() - t;
	waited(ms, slept() - s, 8.0, "sync_file_range(WRITE | WAIT_AFTER) waits for its 8 IOs");
}

/* only files on dev: not tmpfs, not a pipe; a reused fd is looked at again */
static void
test_other_files(void)
{
	char		path[64];
	int			sfd;
	int			pfd[2];
	int			n;
	uint64_t	ios;
	uint64_t	s;

	snprintf(path, sizeof(path), "/dev/shm/pacer_test.%d", (int) getpid());
	sfd = open(path, O_RDWR | O_CREAT, 0600);
	if (sfd < 0)
	{
		ok(true, "# SKIP no /dev/shm");
		return;
	}
	unlink(path);
	configure(1000, 0, 0);
	ios = counter(&st->ios_charged);
	s = slept();
	if (pwrite(sfd, buf, 1024 * KB, 0) != 1024 * KB || fdatasync(sfd) != 0)
		perror("pwrite or fdatasync");
	if (pipe(pfd) != 0 || write(pfd[1], buf, 100) != 100 || fsync(pfd[1]) == 0)
		perror("pipe");
	ok(counter(&st->ios_charged) == ios && slept() == s,
	   "a file on another filesystem (/dev/shm), and a pipe, are not paced");
	close(pfd[0]);
	close(pfd[1]);

	/*
	 * close forgets: the fd number, reused for a paced file under the same
	 * settings, counts its writes
	 */
	n = sfd;
	if (write(sfd, buf, 1) != 1)
		perror("write");
	close(sfd);
	sfd = open_file("reuse", 0);
	if (sfd != n)
		printf("# fd %d reused as %d\n", n, sfd);
	ios = counter(&st->ios_charged);
	if (pwrite(sfd, buf, 1024 * KB, 0) != 1024 * KB || fdatasync(sfd) != 0)
		perror("pwrite or fdatasync");
	ok(counter(&st->ios_charged) - ios == 9,
	   "a closed fd's number, reopened on dev, counts its writes (1 MB: 9 IOs)");

	/* dup2 puts a tmpfs file behind a paced fd without close: the inode tells */
	snprintf(path, sizeof(path), "/dev/shm/pacer_test.%d", (int) getpid());
	n = open(path, O_RDWR | O_CREAT, 0600);
	unlink(path);
	if (dup2(n, sfd) != sfd)
		perror("dup2");
	close(n);
	ios = counter(&st->ios_charged);
	if (fdatasync(sfd) != 0)
		perror("fdatasync");
	ok(counter(&st->ios_charged) == ios,
	   "an fd replaced by dup2 (a tmpfs file now) is looked at again at the flush");
	close(sfd);
}

/* floor_ns and burst */
static void
test_floor_and_burst(int fd)
{
	uint64_t	s;
	double		t;

	near(median_idle_flush_ms(fd, 1000, 5 * 1000000), 5.0, 0.5,
		 "floor 5 ms at 1000 IOPS: a lone flush takes 5 ms");
	near(median_idle_flush_ms(fd, 100000, 3 * 1000000), 3.0, 0.5,
		 "floor 3 ms at 100000 IOPS: a lone flush takes 3 ms");

	/* 100 IOPS (10 ms an IO), a burst of 4: two flushes free, then 20 ms */
	configure(100, 0, 4);
	s = slept();
	t = now_ms();
	for (int i = 0; i < 2; i++)
		if (fdatasync(fd) != 0)
			perror("fdatasync");
	ok(slept() == s, "burst 4: two flushes after an idle time do not wait");
	if (fdatasync(fd) != 0)
		perror("fdatasync");
	within(now_ms() - t, 19.9, 25.0,
		   "burst 4: the third waits its 2 IOs (done 20 ms after the first, at 100 IOPS)");
	usleep(65 * 1000);
	s = slept();
	for (int i = 0; i < 2; i++)
		if (fdatasync(fd) != 0)
			perror("fdatasync");
	ok(slept() == s, "burst 4: after 60 ms idle, two flushes do not wait again");
}

/* a change of settings wakes a sleeper */
static void
test_wake(int fd, double *changed_at)
{
	struct
	{
		uint64_t	iops;
		const char *what;
	}			cases[] = {
		{0, "clearing iops wakes a sleeper (a 2 s flush at 1 IOPS) within 10 ms"},
		{1000, "changing iops wakes a sleeper within 10 ms"},
	};

	for (int c = 0; c < 2; c++)
	{
		uint64_t	woken = counter(&st->waits_woken);
		pid_t		pid;
		double		t;

		configure(1, 0, 0);
		pid = fork();
		if (pid == 0)
		{
			usleep(100 * 1000);
			*changed_at = now_ms();
			wp_pacer_configure(st, cases[c].iops, WP_PACER_IOS_PER_FLUSH, 0, 0, test_dev);
			_exit(0);
		}
		if (fdatasync(fd) != 0)
			perror("fdatasync");
		t = now_ms();
		waitpid(pid, NULL, 0);
		within(t - *changed_at, 0.0, 12.0, cases[c].what);
		ok(counter(&st->waits_woken) == woken + 1, "the wake is counted in waits_woken");
	}
}

/* 4 processes x 50 flushes at 2000 IOPS (1 ms each): a queue, not parallel */
static void
test_queue(double *mean_ms)
{
	enum
	{
		PROCS = 4, EACH = 50
	};
	uint64_t	ios = counter(&st->ios_charged);
	uint64_t	start_ns;
	double		t0;
	double		total;
	bool		shares = true;

	configure(2000, 0, 0);
	start_ns = wp_now() + 20 * 1000000;
	t0 = (double) start_ns / MS;
	for (int p = 0; p < PROCS; p++)
	{
		if (fork() == 0)
		{
			struct timespec ts = {start_ns / NS_PER_S, start_ns % NS_PER_S};
			int			pfd;
			char		name[32];
			double		sum = 0;

			snprintf(name, sizeof(name), "queue%d", p);
			pfd = open_file(name, 0);
			while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
				;
			for (int i = 0; i < EACH; i++)
			{
				double		t = now_ms();

				if (fdatasync(pfd) != 0)
					perror("fdatasync");
				sum += now_ms() - t;
			}
			mean_ms[p] = sum / EACH;
			_exit(0);
		}
	}
	while (wait(NULL) > 0)
		;
	total = now_ms() - t0;
	within(total, 199.0, 230.0, "200 flushes from 4 processes at 2000 IOPS take 200 ms in all");
	ok(counter(&st->ios_charged) - ios == 2 * PROCS * EACH, "they charge 400 IOs");
	for (int p = 0; p < PROCS; p++)
	{
		if (fabs(mean_ms[p] - 4.0) > 1.0)
			shares = false;
		printf("# process %d: mean flush %.3f ms\n", p, mean_ms[p]);
	}
	ok(shares, "each process's mean flush is its share: 4 queued x 1 ms (within 1 ms)");
}

static volatile sig_atomic_t alarms;

static void
on_alarm(int sig)
{
	alarms++;
}

/* signals do not shorten a flush; errno is what the real call left */
static void
test_signals_and_errno(int fd)
{
	struct sigaction sa;
	struct itimerval it = {{0, 1000}, {0, 1000}};
	struct itimerval off = {{0, 0}, {0, 0}};
	double		t;
	ssize_t		n;
	void	   *gone;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;	/* no SA_RESTART */
	sigaction(SIGALRM, &sa, NULL);
	configure(100, 0, 0);
	setitimer(ITIMER_REAL, &it, NULL);
	t = now_ms();
	if (fdatasync(fd) != 0)
		perror("fdatasync");
	t = now_ms() - t;
	setitimer(ITIMER_REAL, &off, NULL);
	within(t, 19.9, 30.0, "a signal every 1 ms does not shorten a 20 ms flush");
	ok(alarms >= 5, "the signals came");
	printf("# %.3f ms, %d signals\n", t, (int) alarms);

	configure(1000, 0, 0);
	errno = 1234;
	if (fdatasync(fd) != 0)
		perror("fdatasync");
	ok(errno == 1234, "a paced fdatasync that succeeds leaves errno as it was");
	/* a page no longer mapped: the kernel answers EFAULT */
	gone = mmap(NULL, 8 * KB, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(gone, 8 * KB);
	errno = 0;
	n = pwrite(fd, gone, 8 * KB, 0);
	ok(n == -1 && errno == EFAULT, "a paced pwrite that fails keeps its errno (EFAULT)");
}

int
main(void)
{
	static const char *const files[] = {
		"data", "dsync", "reuse", "queue0", "queue1", "queue2", "queue3"
	};
	const char *tmp = getenv("TMPDIR");
	struct stat sb;
	int			fd;
	double	   *shared;

	snprintf(dir, sizeof(dir), "%s/pacer_test.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (mkdtemp(dir) == NULL || stat(dir, &sb) != 0)
	{
		perror(dir);
		return 2;
	}
	test_dev = (uint64_t) sb.st_dev;
	memset(buf, 'x', sizeof(buf));
	st = mmap(NULL, sizeof(WpPacerState), PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (st == MAP_FAILED)
	{
		perror("mmap");
		return 2;
	}
	wp_pacer_init(st);
	/* what forked children hand back */
	shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED)
	{
		perror("mmap");
		return 2;
	}
	fd = open_file("data", 0);
	if (pwrite(fd, buf, 8 * KB, 0) != 8 * KB || fdatasync(fd) != 0)
		perror("pwrite or fdatasync");

	test_pass_through(fd);
	test_lone_flush(fd);
	test_dirty(fd);
	test_other_files();
	test_floor_and_burst(fd);
	test_wake(fd, shared);
	test_queue(shared);
	test_signals_and_errno(fd);

	walpressure_pacer_attach(NULL);
	close(fd);
	for (int i = 0; i < (int) (sizeof(files) / sizeof(files[0])); i++)
	{
		char		path[512];

		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
	}
	if (rmdir(dir) != 0)
		printf("# could not remove %s\n", dir);
	return done_testing();
}

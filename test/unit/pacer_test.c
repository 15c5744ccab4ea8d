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
 * line for every unit test builds this one too; it comes first, as its
 * feature macros must precede every system header, and postgres.h after
 * it, for tap.h (which includes miscadmin.h: no server is needed):
 *
 *	cc -O2 -Wall -Werror -I$(pg_config --includedir-server) -I src \
 *	   -o pacer_test test/unit/pacer_test.c \
 *	   -L$(pg_config --pkglibdir) -lpgcommon -lpgport -lm
 *
 * Two directories: one in /dev/shm, whose filesystem (tmpfs) is the paced
 * one for most tests, as its fdatasync costs nothing, so that the times
 * measured are the pacer's alone even while other tests load the disk; and
 * one under $TMPDIR (or /tmp), a filesystem that is then not paced, and
 * that one test paces with its real fdatasync.  Without a /dev/shm of its
 * own, the $TMPDIR directory is the paced one and the tests of another
 * filesystem are skipped.
 *
 * What is charged is checked exactly, on the counters.  Times are checked
 * by timed(): a paced call never ends early, and ends late only by how
 * late this machine wakes a sleeper; other tests loading both CPUs make
 * that milliseconds now and then, so a timing is taken up to three times.
 * About 2 s in all.
 *
 * IDENTIFICATION
 *	  test/unit/pacer_test.c
 *
 *-------------------------------------------------------------------------
 */
#include "pacer/walpressure_pacer.c"

#include "postgres.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/wait.h>

#include "tap.h"

#define MS 1000000.0			/* ns */
#define KB 1024
#define RUNS 5					/* flushes a median is taken of */
#define TRIES 3					/* attempts at a timing */

static WpPacerState *st;
static uint64_t test_dev;		/* the paced filesystem */
static uint64_t other_dev;		/* another, when there is one */
static char dir[256];			/* on test_dev */
static char other_dir[256];		/* on other_dev, or "" */
static char buf[1024 * KB + 1];
static double *shared;			/* what forked children hand back */

/* ms on the clock the shim uses */
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

/* New settings on the paced filesystem, and an idle disk. */
static void
configure(uint64_t iops, uint64_t floor_ns, uint64_t burst)
{
	wp_pacer_configure(st, iops, WP_PACER_IOS_PER_FLUSH, floor_ns, burst, test_dev);
}

/* A file of directory d, opened with extra flags. */
static int
open_in(const char *d, const char *name, int flags)
{
	char		path[512];
	int			fd;

	snprintf(path, sizeof(path), "%s/%s", d, name);
	fd = open(path, O_RDWR | O_CREAT | flags, 0600);
	if (fd < 0)
	{
		perror(path);
		exit(2);
	}
	return fd;
}

/* fdatasync, said when it fails */
static void
flush(int fd)
{
	if (fdatasync(fd) != 0)
		perror("fdatasync");
}

/* pwrite of the first n bytes of buf, said when it falls short */
static void
write_bytes(int fd, size_t n)
{
	if (pwrite(fd, buf, n, 0) != (ssize_t) n)
		perror("pwrite");
}

/*
 * How late this machine wakes a sleeper now: the median, over RUNS plain
 * sleeps of 2 ms to an absolute time, of the time past it.
 */
static double
lateness_ms(void)
{
	double		v[RUNS];

	for (int i = 0; i < RUNS; i++)
	{
		uint64_t	until = wp_now() + 2 * 1000000;
		struct timespec ts = {until / NS_PER_S, until % NS_PER_S};

		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		v[i] = (double) (wp_now() - until) / MS;
	}
	return median(v, RUNS);
}

/*
 * One attempt at a timing: it sets its settings (an idle disk), makes the
 * paced calls and returns the ms they took.
 */
typedef double (*Attempt) (int fd);

/*
 * A timing: the attempt's time lies in [want - 0.1, want + slack] plus
 * this machine's late wake, measured just before.  Tried up to TRIES
 * times; every attempt must respect the lower bound (a paced call never
 * ends early), one the upper.  An attempt that did not sleep at all passes
 * when it respects the lower bound: its real calls took the time on their
 * own (a loaded disk, when the files are on one).
 */
static void
timed(Attempt attempt, int fd, double want, double slack, const char *what)
{
	double		got[TRIES];
	double		late[TRIES];
	int			n;
	bool		early = false;
	bool		in = false;

	for (n = 0; n < TRIES && !in && !early; n++)
	{
		uint64_t	slept_before;

		late[n] = lateness_ms();
		slept_before = counter(&st->sleep_ns);
		got[n] = attempt(fd);
		if (got[n] < want - 0.1)
			early = true;
		else if (got[n] <= want + slack + late[n] ||
				 counter(&st->sleep_ns) == slept_before)
			in = true;
	}
	ok(in && !early, what);
	if (!in || early)
		for (int i = 0; i < n; i++)
			printf("#   attempt %d: %.3f ms, want %.3f to %.3f + %.3f (late wake)\n",
				   i + 1, got[i], want - 0.1, want + slack, late[i]);
}

/* the attempts timed() takes, each on an idle disk */

static double
lone_flush_1000(int fd)
{
	double		v[RUNS];

	for (int i = 0; i < RUNS; i++)
	{
		double		t;

		configure(1000, 0, 0);
		t = now_ms();
		flush(fd);
		v[i] = now_ms() - t;
	}
	return median(v, RUNS);
}

static double
lone_flush_500(int fd)
{
	double		v[RUNS];

	for (int i = 0; i < RUNS; i++)
	{
		double		t;

		configure(500, 0, 0);
		t = now_ms();
		flush(fd);
		v[i] = now_ms() - t;
	}
	return median(v, RUNS);
}

static double
dsync_write(int fd)
{
	double		v[RUNS];

	for (int i = 0; i < RUNS; i++)
	{
		double		t;

		configure(1000, 0, 0);
		t = now_ms();
		write_bytes(fd, 8 * KB);
		v[i] = now_ms() - t;
	}
	return median(v, RUNS);
}

static double
flush_of_1mb(int fd)
{
	double		t;

	configure(1000, 0, 0);
	write_bytes(fd, 1024 * KB);
	t = now_ms();
	flush(fd);
	return now_ms() - t;
}

static double
writeback_then_flush(int fd)
{
	double		t;

	configure(1000, 0, 0);
	write_bytes(fd, 1024 * KB);
	t = now_ms();
	if (sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE) != 0)
		perror("sync_file_range");
	flush(fd);
	return now_ms() - t;
}

static double
writeback_wait_after(int fd)
{
	double		t;

	configure(1000, 0, 0);
	write_bytes(fd, 1024 * KB);
	t = now_ms();
	if (sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER) != 0)
		perror("sync_file_range");
	return now_ms() - t;
}

static double
floor_5ms(int fd)
{
	double		t;

	configure(1000, 5 * 1000000, 0);
	t = now_ms();
	flush(fd);
	return now_ms() - t;
}

static double
floor_3ms_fast_disk(int fd)
{
	double		t;

	configure(100000, 3 * 1000000, 0);
	t = now_ms();
	flush(fd);
	return now_ms() - t;
}

/* 100 IOPS, a burst of 4: two flushes free, the third done 20 ms on */
static double
third_after_burst(int fd)
{
	double		t;

	configure(100, 0, 4);
	t = now_ms();
	for (int i = 0; i < 3; i++)
		flush(fd);
	return now_ms() - t;
}

/*
 * A flush of 2 s (1 IOPS), its settings changed to shared[1] IOPS by a
 * child 100 ms on: the ms from the change to the sleeper's return.
 */
static double
woken(int fd)
{
	pid_t		pid;
	double		t;

	configure(1, 0, 0);
	pid = fork();
	if (pid == 0)
	{
		usleep(100 * 1000);
		shared[0] = now_ms();
		wp_pacer_configure(st, (uint64_t) shared[1], WP_PACER_IOS_PER_FLUSH, 0, 0, test_dev);
		_exit(0);
	}
	flush(fd);
	t = now_ms();
	waitpid(pid, NULL, 0);
	return t - shared[0];
}

static volatile sig_atomic_t alarms;

static void
on_alarm(int sig)
{
	alarms++;
}

/* a 20 ms flush (100 IOPS) under a SIGALRM every 1 ms */
static double
flush_under_signals(int fd)
{
	struct itimerval it = {{0, 1000}, {0, 1000}};
	struct itimerval off = {{0, 0}, {0, 0}};
	double		t;

	configure(100, 0, 0);
	alarms = 0;
	setitimer(ITIMER_REAL, &it, NULL);
	t = now_ms();
	flush(fd);
	t = now_ms() - t;
	setitimer(ITIMER_REAL, &off, NULL);
	return t;
}

/* 1 MB written to a file of the $TMPDIR disk, paced, then its fdatasync */
static double
disk_flush_of_1mb(int fd)
{
	double		t;

	wp_pacer_configure(st, 1000, WP_PACER_IOS_PER_FLUSH, 0, 0, other_dev);
	write_bytes(fd, 1024 * KB);
	t = now_ms();
	flush(fd);
	return now_ms() - t;
}

/* ---- the tests ---- */

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

		flush(fd);
		v[i] = now_ms() - t;
	}
	qsort(v, RUNS, sizeof(double), cmp_double);
	ok(counter(&st->ios_charged) == ios && counter(&st->sleep_ns) == 0 && v[0] < 2.0,
	   "detached: an fdatasync is neither charged nor held for the 2 ms it would cost");
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

		flush(fd);
		write_bytes(fd, 8 * KB);
		v[i] = now_ms() - t;
	}
	qsort(v, RUNS, sizeof(double), cmp_double);
	ok(counter(&st->ios_charged) == ios && counter(&st->sleep_ns) == 0 && v[0] < 2.0,
	   "iops 0: nothing charged, no sleep");
	errno = 0;
	ok(fdatasync(-1) == -1 && errno == EBADF, "iops 0: the real fdatasync runs (EBADF on fd -1)");
}

/* the cost of one flush, and of O_DSYNC writes */
static void
test_lone_flush(int fd)
{
	int			dfd = open_in(dir, "dsync", O_DSYNC);
	uint64_t	ios;
	uint64_t	flushes;
	struct iovec iov = {buf, 8 * KB};

	timed(lone_flush_1000, fd, 2.0, 0.5, "a lone fdatasync at 1000 IOPS takes 2 ms (2 IOs)");
	timed(lone_flush_500, fd, 4.0, 0.5, "a lone fdatasync at 500 IOPS takes 4 ms");

	configure(1000, 0, 0);
	ios = counter(&st->ios_charged);
	flushes = counter(&st->flushes_paced);
	write_bytes(dfd, 8 * KB);
	ok(counter(&st->ios_charged) - ios == 2 && counter(&st->flushes_paced) - flushes == 1,
	   "an 8 kB write to an O_DSYNC fd is charged as a flush (2 IOs)");
	timed(dsync_write, dfd, 2.0, 0.5, "an 8 kB write to an O_DSYNC fd takes 2 ms at 1000 IOPS");

	ios = counter(&st->ios_charged);
	configure(1000, 0, 0);
	if (pwritev2(fd, &iov, 1, 0, RWF_DSYNC) != 8 * KB)
		perror("pwritev2");
	ok(counter(&st->ios_charged) - ios == 2, "pwritev2 with RWF_DSYNC is charged as a flush");
	close(dfd);
}

/* IOs charged by writing `bytes` to fd in one pwrite, then fdatasync */
static uint64_t
ios_of_flush_after(int fd, size_t bytes)
{
	uint64_t	before;

	configure(1000, 0, 0);
	before = counter(&st->ios_charged);
	write_bytes(fd, bytes);
	flush(fd);
	return counter(&st->ios_charged) - before;
}

/* the cost of dirty data: 128 kB an IO; writebacks */
static void
test_dirty(int fd)
{
	uint64_t	ios;
	uint64_t	s;
	struct iovec iov[8];

	ok(ios_of_flush_after(fd, 128 * KB) == 2, "128 kB then fdatasync: ios_per_flush (2) IOs");
	ok(ios_of_flush_after(fd, 128 * KB + 1) == 3, "128 kB + 1 then fdatasync: 3 IOs");
	ok(ios_of_flush_after(fd, 1024 * KB) == WP_PACER_IOS_PER_FLUSH - 1 + 8,
	   "1 MB then fdatasync: ios_per_flush - 1 + 8 IOs");
	timed(flush_of_1mb, fd, 9.0, 0.5, "1 MB then fdatasync at 1000 IOPS takes 9 ms");

	for (int i = 0; i < 8; i++)
	{
		iov[i].iov_base = buf + i * 128 * KB;
		iov[i].iov_len = 128 * KB;
	}
	configure(1000, 0, 0);
	ios = counter(&st->ios_charged);
	if (pwritev(fd, iov, 8, 0) != 1024 * KB || write(fd, buf, 1) != 1)
		perror("pwritev or write");
	flush(fd);
	ok(counter(&st->ios_charged) - ios == 10,
	   "pwritev of 1 MB and write of 1 byte: 1 + 9 IOs at the flush");

	/* sync_file_range: reserved on the clock, no wait */
	configure(1000, 0, 0);
	ios = counter(&st->ios_charged);
	write_bytes(fd, 1024 * KB);
	s = counter(&st->sleep_ns);
	if (sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE) != 0)
		perror("sync_file_range");
	ok(counter(&st->ios_charged) - ios == 8 && counter(&st->writebacks_paced) == 1,
	   "sync_file_range(WRITE) of 1 MB dirty charges 8 write IOs");
	ok(counter(&st->sleep_ns) == s, "sync_file_range(WRITE) does not wait for them");
	flush(fd);
	ok(counter(&st->ios_charged) - ios == 10, "the fdatasync after it costs ios_per_flush");
	timed(writeback_then_flush, fd, 10.0, 0.5,
		  "the fdatasync after it queues behind the writeback (8 + 2 ms)");
	timed(writeback_wait_after, fd, 8.0, 0.5,
		  "sync_file_range(WRITE | WAIT_AFTER) waits for its 8 IOs");
}

/*
 * Only files on dev are paced: not another filesystem's, not a pipe; a
 * reused fd is looked at again.  And on the disk of $TMPDIR, paced in turn,
 * the real fdatasync's time counts toward the wait.
 */
static void
test_other_files(void)
{
	int			ofd;
	int			pfd[2];
	int			n;
	uint64_t	ios;
	uint64_t	s;

	if (other_dir[0] == '\0')
	{
		ok(true, "# SKIP no second filesystem (no /dev/shm of its own)");
		return;
	}
	ofd = open_in(other_dir, "other", 0);
	configure(1000, 0, 0);
	ios = counter(&st->ios_charged);
	s = counter(&st->sleep_ns);
	write_bytes(ofd, 1024 * KB);
	flush(ofd);
	if (pipe(pfd) != 0 || write(pfd[1], buf, 100) != 100 || fsync(pfd[1]) == 0)
		perror("pipe");
	ok(counter(&st->ios_charged) == ios && counter(&st->sleep_ns) == s,
	   "a file on another filesystem, and a pipe, are not paced");
	close(pfd[0]);
	close(pfd[1]);

	/*
	 * close forgets: the fd number, reused for a paced file under the same
	 * settings, counts its writes
	 */
	n = ofd;
	if (write(ofd, buf, 1) != 1)
		perror("write");
	close(ofd);
	ofd = open_in(dir, "reuse", 0);
	if (ofd != n)
		printf("# fd %d reused as %d\n", n, ofd);
	ios = counter(&st->ios_charged);
	write_bytes(ofd, 1024 * KB);
	flush(ofd);
	ok(counter(&st->ios_charged) - ios == 9,
	   "a closed fd's number, reopened on dev, counts its writes (1 MB: 9 IOs)");

	/* dup2 puts another file behind a paced fd without close: the inode tells */
	n = open_in(other_dir, "other", 0);
	if (dup2(n, ofd) != ofd)
		perror("dup2");
	close(n);
	ios = counter(&st->ios_charged);
	flush(ofd);
	ok(counter(&st->ios_charged) == ios,
	   "an fd replaced by dup2 (another filesystem's file now) is looked at again at the flush");
	close(ofd);

	/* the disk of $TMPDIR paced: its real fdatasync counts toward the wait */
	ofd = open_in(other_dir, "disk", 0);
	ios = counter(&st->ios_charged);
	(void) disk_flush_of_1mb(ofd);
	ok(counter(&st->ios_charged) - ios == 9, "on a real disk: 1 MB then fdatasync costs 9 IOs");
	timed(disk_flush_of_1mb, ofd, 9.0, 0.5,
		  "on a real disk: it takes 9 ms, its real flush's time included");
	close(ofd);
}

/* floor_ns and burst */
static void
test_floor_and_burst(int fd)
{
	uint64_t	s;

	timed(floor_5ms, fd, 5.0, 0.5, "floor 5 ms at 1000 IOPS: a lone flush takes 5 ms");
	timed(floor_3ms_fast_disk, fd, 3.0, 0.5, "floor 3 ms at 100000 IOPS: a lone flush takes 3 ms");

	/* 100 IOPS (10 ms an IO), a burst of 4: two flushes free, then 20 ms */
	configure(100, 0, 4);
	s = counter(&st->sleep_ns);
	flush(fd);
	flush(fd);
	ok(counter(&st->sleep_ns) == s, "burst 4: two flushes after an idle time do not wait");
	timed(third_after_burst, fd, 20.0, 0.5,
		  "burst 4: the third waits its 2 IOs (done 20 ms after the first, at 100 IOPS)");
	usleep(65 * 1000);
	s = counter(&st->sleep_ns);
	flush(fd);
	flush(fd);
	ok(counter(&st->sleep_ns) == s, "burst 4: after 60 ms idle, two flushes do not wait again");
}

/* a change of settings wakes a sleeper */
static void
test_wake(int fd)
{
	uint64_t	woken_before = counter(&st->waits_woken);

	shared[1] = 0;
	timed(woken, fd, 0.1, 10.4, "clearing iops wakes a sleeper (a 2 s flush at 1 IOPS) within 10 ms");
	shared[1] = 1000;
	timed(woken, fd, 0.1, 10.4, "changing iops wakes a sleeper within 10 ms");
	ok(counter(&st->waits_woken) > woken_before, "the wakes are counted in waits_woken");
}

/*
 * 4 processes x 50 flushes at 2000 IOPS (1 ms each): a queue, not
 * parallel; shared[p] gets process p's mean flush.  Up to TRIES attempts.
 */
static void
test_queue(void)
{
	enum
	{
		PROCS = 4, EACH = 50
	};
	double		total = 0;
	bool		shares = false;
	uint64_t	ios = 0;

	for (int attempt = 0; attempt < TRIES && !shares; attempt++)
	{
		uint64_t	start_ns;

		configure(2000, 0, 0);
		ios = counter(&st->ios_charged);
		start_ns = wp_now() + 20 * 1000000;
		for (int p = 0; p < PROCS; p++)
		{
			if (fork() == 0)
			{
				struct timespec ts = {start_ns / NS_PER_S, start_ns % NS_PER_S};
				char		name[32];
				double		sum = 0;
				int			pfd;

				snprintf(name, sizeof(name), "queue%d", p);
				pfd = open_in(dir, name, 0);
				while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
					;
				for (int i = 0; i < EACH; i++)
				{
					double		t = now_ms();

					flush(pfd);
					sum += now_ms() - t;
				}
				shared[p] = sum / EACH;
				_exit(0);
			}
		}
		while (wait(NULL) > 0)
			;
		total = now_ms() - (double) start_ns / MS;
		ios = counter(&st->ios_charged) - ios;
		shares = total >= 199.0 && total <= 215.0;
		for (int p = 0; p < PROCS; p++)
		{
			printf("# attempt %d, process %d: mean flush %.3f ms\n", attempt + 1, p, shared[p]);
			if (fabs(shared[p] - 4.0) > 0.5)
				shares = false;
		}
		printf("# attempt %d: all done in %.3f ms\n", attempt + 1, total);
	}
	ok(ios == 2 * PROCS * EACH, "200 flushes from 4 processes at 2000 IOPS charge 400 IOs");
	ok(shares, "they take 200 ms in all (199 to 215), each process's mean flush its share: "
	   "4 queued x 1 ms (within 0.5 ms)");
}

/* signals do not shorten a flush; errno is what the real call left */
static void
test_signals_and_errno(int fd)
{
	struct sigaction sa;
	void	   *gone;
	ssize_t		n;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;	/* no SA_RESTART */
	sigaction(SIGALRM, &sa, NULL);
	timed(flush_under_signals, fd, 20.0, 1.0,
		  "a signal every 1 ms does not shorten a 20 ms flush");
	ok(alarms >= 5, "the signals came");

	configure(1000, 0, 0);
	errno = 1234;
	flush(fd);
	ok(errno == 1234, "a paced fdatasync that succeeds leaves errno as it was");

	/* a page no longer mapped: the kernel answers EFAULT */
	gone = mmap(NULL, 8 * KB, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(gone, 8 * KB);
	errno = 0;
	n = pwrite(fd, gone, 8 * KB, 0);
	ok(n == -1 && errno == EFAULT, "a paced pwrite that fails keeps its errno (EFAULT)");
}

/* Remove the files the tests made in d, and d. */
static void
remove_dir(const char *d)
{
	static const char *const files[] = {
		"data", "dsync", "reuse", "queue0", "queue1", "queue2", "queue3", "other", "disk"
	};

	for (int i = 0; i < (int) (sizeof(files) / sizeof(files[0])); i++)
	{
		char		path[512];

		snprintf(path, sizeof(path), "%s/%s", d, files[i]);
		unlink(path);
	}
	if (rmdir(d) != 0)
		printf("# could not remove %s\n", d);
}

int
main(void)
{
	const char *tmp = getenv("TMPDIR");
	struct stat sb;
	struct stat shm;
	int			fd;

	snprintf(other_dir, sizeof(other_dir), "%s/pacer_test.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (mkdtemp(other_dir) == NULL || stat(other_dir, &sb) != 0)
	{
		perror(other_dir);
		return 2;
	}
	other_dev = (uint64_t) sb.st_dev;
	snprintf(dir, sizeof(dir), "/dev/shm/pacer_test.XXXXXX");
	if (mkdtemp(dir) != NULL && stat(dir, &shm) == 0 && shm.st_dev != sb.st_dev)
		test_dev = (uint64_t) shm.st_dev;
	else
	{
		/* no /dev/shm of its own: the $TMPDIR directory is the paced one */
		if (strchr(dir, 'X') == NULL)
			rmdir(dir);
		strcpy(dir, other_dir);
		test_dev = other_dev;
		other_dir[0] = '\0';
	}
	printf("# paced: %s; another filesystem: %s\n", dir, other_dir[0] ? other_dir : "none");

	memset(buf, 'x', sizeof(buf));
	st = mmap(NULL, sizeof(WpPacerState), PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (st == MAP_FAILED || shared == MAP_FAILED)
	{
		perror("mmap");
		return 2;
	}
	wp_pacer_init(st);
	fd = open_in(dir, "data", 0);
	write_bytes(fd, 8 * KB);
	flush(fd);
	printf("# this machine wakes a 2 ms sleeper %.3f ms late now\n", lateness_ms());

	test_pass_through(fd);
	test_lone_flush(fd);
	test_dirty(fd);
	test_other_files();
	test_floor_and_burst(fd);
	test_wake(fd);
	test_queue();
	test_signals_and_errno(fd);

	walpressure_pacer_attach(NULL);
	close(fd);
	remove_dir(dir);
	if (other_dir[0] != '\0')
		remove_dir(other_dir);
	return done_testing();
}

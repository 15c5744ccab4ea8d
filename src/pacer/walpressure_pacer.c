/*-------------------------------------------------------------------------
 *
 * walpressure_pacer.c
 *		The paced disk: an LD_PRELOAD library that charges the server's own
 *		writes and flushes of files on pg_wal's filesystem to a leaky bucket
 *		of N IOs per second, and makes each flush wait for its turn.
 *
 * The postmaster is started with this library preloaded; walpressure finds
 * walpressure_pacer_attach with dlsym and hands it its shared WpPacerState
 * (pacer_state.h), and every server process inherits the pointer by fork.
 * Until then every call below passes straight through to libc at the cost
 * of two loads and a test; attached with iops 0, of a call and a load more.
 *
 * When iops > 0, for a regular file or directory on the state's dev:
 * a write adds its bytes to the fd's dirty count in this process (buffered
 * data reaches the disk at the flush), except on an fd opened O_DSYNC or
 * O_SYNC, where it is a write and a flush in one; fsync and fdatasync run
 * the real call, then charge ios_per_flush - 1 + max(1, ceil(dirty /
 * 128 kB)) IOs on the virtual clock (so a flush of up to 128 kB costs
 * exactly ios_per_flush) and sleep until their completion;
 * sync_file_range(SYNC_FILE_RANGE_WRITE) reserves the dirty bytes as write
 * IOs without waiting, unless asked to wait after.
 *
 * The clock: a batch of k IOs arriving at `now` starts at s = max(next_ns,
 * now - burst * T), T = 1 s / iops, and moves next_ns to s + k * T, with a
 * compare-and-swap, so that concurrent processes queue in arrival order, as
 * QEMU's throttle groups, EBS and cgroup v2's io.cost do; it completes at
 * max(s + k * T, now + floor_ns).  The arrival is taken before the real
 * call, so the real call's own time counts toward the wait.
 *
 * The calls are here; the fds (what each is, its dirty bytes) are
 * pacer_fds.c's, the clock (a flush's IOs, the charge, the sleep)
 * pacer_clock.c's, and what they share pacer_internal.h.
 *
 * Rules kept throughout: nothing on a call's path allocates, takes a lock or
 * holds anything across a fork (libc's functions are resolved at load); the sleeps loop over EINTR (PostgreSQL's signals
 * must not shorten a flush), wake within 10 ms of a change of settings and
 * last at most 10 s per call; errno is what the real call left.  The fd
 * table is this process's own (a thread racing another on one fd may lose
 * a count; PostgreSQL's processes are single-threaded).
 *
 * IDENTIFICATION
 *	  src/pacer/walpressure_pacer.c
 *
 *-------------------------------------------------------------------------
 */
#undef _FILE_OFFSET_BITS		/* pwrite must stay pwrite, not pwrite64 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "pacer_state.h"
#include "pacer_internal.h"

#define WP_EXPORT __attribute__((visibility("default")))


/* libc's functions, resolved at load (or at first use, if called before) */
typedef ssize_t (*write_fn) (int, const void *, size_t);
typedef ssize_t (*pwrite_fn) (int, const void *, size_t, off_t);
typedef ssize_t (*pwrite64_fn) (int, const void *, size_t, off64_t);
typedef ssize_t (*writev_fn) (int, const struct iovec *, int);
typedef ssize_t (*pwritev_fn) (int, const struct iovec *, int, off_t);
typedef ssize_t (*pwritev64_fn) (int, const struct iovec *, int, off64_t);
typedef ssize_t (*pwritev2_fn) (int, const struct iovec *, int, off_t, int);
typedef ssize_t (*pwritev64v2_fn) (int, const struct iovec *, int, off64_t, int);
typedef int (*fd_fn) (int);
typedef int (*sfr_fn) (int, off64_t, off64_t, unsigned int);

enum
{
	R_WRITE, R_PWRITE, R_PWRITE64, R_WRITEV, R_PWRITEV, R_PWRITEV64,
	R_PWRITEV2, R_PWRITEV64V2, R_FSYNC, R_FDATASYNC, R_SYNCFS,
	R_SYNC_FILE_RANGE, R_CLOSE, R_COUNT
};

static const char *const wp_real_names[R_COUNT] = {
	"write", "pwrite", "pwrite64", "writev", "pwritev", "pwritev64",
	"pwritev2", "pwritev64v2", "fsync", "fdatasync", "syncfs",
	"sync_file_range", "close"
};

static void *wp_real_fns[R_COUNT];

/*
 * Look up libc's own function of that name (RTLD_NEXT: the next object
 * after this one that defines it).  Two threads doing so at once store the
 * same pointer.
 */
static __attribute__((noinline)) void *
wp_resolve(int which)
{
	void	   *fn = dlsym(RTLD_NEXT, wp_real_names[which]);

	__atomic_store_n(&wp_real_fns[which], fn, __ATOMIC_RELEASE);
	return fn;
}

/*
 * libc's own function: resolved once by the constructor, or here by a
 * call that comes earlier (another library's constructor).
 */
static inline void *
wp_real(int which)
{
	void	   *fn = __atomic_load_n(&wp_real_fns[which], __ATOMIC_ACQUIRE);

	if (__builtin_expect(fn == NULL, 0))
		fn = wp_resolve(which);
	return fn;
}

/* Resolve every libc function at load, while nothing runs in a handler. */
__attribute__((constructor))
static void
wp_resolve_all(void)
{
	int			save_errno = errno;

	for (int i = 0; i < R_COUNT; i++)
		(void) wp_real(i);
	errno = save_errno;
}

/*
 * The attached state when pacing is on (iops > 0, in *iops), else NULL:
 * what the paced path of each call looks at first.
 */
static inline WpPacerState *
wp_active(uint64_t *iops)
{
	WpPacerState *st = __atomic_load_n(&wp_state, __ATOMIC_ACQUIRE);

	*iops = 0;
	if (__builtin_expect(st == NULL, 1))
		return NULL;
	*iops = __atomic_load_n(&st->iops, __ATOMIC_ACQUIRE);
	return *iops == 0 ? NULL : st;
}

/*
 * After a flush of fd that arrived at `arrival` and succeeded: charge it
 * (its dirty bytes, and `extra` bytes written with it) and wait for it.
 */
static void
wp_pace_flush(WpPacerState *st, uint64_t iops, int fd, uint64_t arrival,
			  uint64_t extra)
{
	uint64_t	gen = __atomic_load_n(&st->generation, __ATOMIC_ACQUIRE);
	WpFd		spare;
	WpFd	   *e = wp_fd(st, fd, true, &spare);
	uint64_t	done;

	if (e->kind == WP_FD_OTHER)
		return;
	done = wp_charge(st, iops, wp_flush_ios(st, e->dirty + extra), arrival, true);
	e->dirty = 0;
	wp_sleep_until(st, done, gen);
}

/*
 * After a write of n bytes to fd that arrived at `arrival`: count them
 * dirty, or, on an O_DSYNC fd (or with a sync flag), pace it as a flush.
 */
static void
wp_pace_write(WpPacerState *st, uint64_t iops, int fd, ssize_t n,
			  uint64_t arrival, bool sync)
{
	WpFd		spare;
	WpFd	   *e;

	if (n <= 0)
		return;
	e = wp_fd(st, fd, false, &spare);
	if (e->kind == WP_FD_OTHER)
		return;
	if (sync || e->kind == WP_FD_PACED_SYNC)
		wp_pace_flush(st, iops, fd, arrival, (uint64_t) n);
	else
		e->dirty += (uint64_t) n;
}

/*
 * The real call of a write: `which` libc function, with its arguments (buf
 * is the iovec array and count the iovcnt of the vector writes).
 */
static ssize_t
wp_real_write(int which, int fd, const void *buf, size_t count,
			  off64_t offset, int flags)
{
	void	   *fn = wp_real(which);
	const struct iovec *iov = (const struct iovec *) buf;

	if (fn == NULL)
	{
		errno = ENOSYS;
		return -1;
	}
	switch (which)
	{
		case R_WRITE:
			return ((write_fn) fn) (fd, buf, count);
		case R_PWRITE:
			return ((pwrite_fn) fn) (fd, buf, count, (off_t) offset);
		case R_PWRITE64:
			return ((pwrite64_fn) fn) (fd, buf, count, offset);
		case R_WRITEV:
			return ((writev_fn) fn) (fd, iov, (int) count);
		case R_PWRITEV:
			return ((pwritev_fn) fn) (fd, iov, (int) count, (off_t) offset);
		case R_PWRITEV64:
			return ((pwritev64_fn) fn) (fd, iov, (int) count, offset);
		case R_PWRITEV2:
			return ((pwritev2_fn) fn) (fd, iov, (int) count, (off_t) offset, flags);
		case R_PWRITEV64V2:
			return ((pwritev64v2_fn) fn) (fd, iov, (int) count, offset, flags);
	}
	errno = ENOSYS;
	return -1;
}

/* pwritev2 with RWF_DSYNC or RWF_SYNC is a write and a flush in one. */
#if defined(RWF_DSYNC) && defined(RWF_SYNC)
#define WP_RWF_SYNC(flags) (((flags) & (RWF_DSYNC | RWF_SYNC)) != 0)
#else
#define WP_RWF_SYNC(flags) false
#endif

/*
 * A write while attached: when pacing is on, the arrival, the real call,
 * and its bytes counted dirty (or, on an O_DSYNC fd or with a sync flag,
 * the write paced as a flush), keeping the real call's errno.  Out of line
 * and called with the arguments as they came, so that each entry point's
 * pass-through path stays two loads and a jump.
 */
static __attribute__((noinline)) ssize_t
wp_paced_write(int which, int fd, const void *buf, size_t count,
			   off64_t offset, int flags)
{
	uint64_t	iops;
	WpPacerState *st = wp_active(&iops);
	uint64_t	arrival;
	ssize_t		n;
	int			save_errno;

	if (st == NULL)
		return wp_real_write(which, fd, buf, count, offset, flags);
	arrival = wp_now();
	n = wp_real_write(which, fd, buf, count, offset, flags);
	save_errno = errno;
	wp_pace_write(st, iops, fd, n, arrival,
				  (which == R_PWRITEV2 || which == R_PWRITEV64V2) && WP_RWF_SYNC(flags));
	errno = save_errno;
	return n;
}

/*
 * fsync or fdatasync while attached: when pacing is on, the arrival, the
 * real call, then, if it succeeded, the charge and the wait, keeping the
 * real call's errno.
 */
static __attribute__((noinline)) int
wp_paced_flush(int which, int fd)
{
	fd_fn		real = (fd_fn) wp_real(which);
	uint64_t	iops;
	WpPacerState *st = wp_active(&iops);
	uint64_t	arrival;
	int			rc;
	int			save_errno;

	if (st == NULL)
		return real(fd);
	arrival = wp_now();
	rc = real(fd);
	if (rc != 0)
		return rc;
	save_errno = errno;
	wp_pace_flush(st, iops, fd, arrival, 0);
	errno = save_errno;
	return rc;
}

/*
 * A state is attached: the pass-through test every entry point makes
 * first (the paced path then looks at iops).
 */
static inline bool
wp_attached(void)
{
	return __builtin_expect(__atomic_load_n(&wp_state, __ATOMIC_ACQUIRE) != NULL, 0);
}

/* ----------------------------------------------------------------
 * The exported entry points
 * ----------------------------------------------------------------
 */

#define WP_STRINGIFY(x) #x
#define WP_VERSION_STRING(v) "walpressure_pacer " WP_STRINGIFY(v)

/*
 * Attach the shared state (the extension calls this in the postmaster,
 * through dlsym, once its shared memory exists).  NULL detaches: every call
 * passes through again.  A state of another layout or version is refused
 * and detaches too.  Returns 1 when attached, 0 when detached on request,
 * -1 when refused.  Clears this process's fd table, so that nothing seen
 * under an earlier state is trusted.
 */
WP_EXPORT int
walpressure_pacer_attach(void *state)
{
	WpPacerState *st = (WpPacerState *) state;

	__atomic_store_n(&wp_state, NULL, __ATOMIC_RELEASE);
	wp_fds_clear();
	if (st == NULL)
		return 0;
	if (__atomic_load_n(&st->magic, __ATOMIC_ACQUIRE) != WP_PACER_MAGIC ||
		st->size != sizeof(WpPacerState))
		return -1;
	__atomic_store_n(&wp_state, st, __ATOMIC_RELEASE);
	return 1;
}

/*
 * The library's name and the version of the state's layout it reads
 * (WP_PACER_VERSION), for the extension to report.
 */
WP_EXPORT const char *
walpressure_pacer_version(void)
{
	return WP_VERSION_STRING(WP_PACER_VERSION);
}

/*
 * The writes: each passes straight through unless a state is attached;
 * then wp_paced_write counts what it wrote as dirty (or paces it, on an
 * O_DSYNC fd).
 */
WP_EXPORT ssize_t
write(int fd, const void *buf, size_t count)
{
	if (wp_attached())
		return wp_paced_write(R_WRITE, fd, buf, count, 0, 0);
	return ((write_fn) wp_real(R_WRITE)) (fd, buf, count);
}

WP_EXPORT ssize_t
pwrite(int fd, const void *buf, size_t count, off_t offset)
{
	if (wp_attached())
		return wp_paced_write(R_PWRITE, fd, buf, count, offset, 0);
	return ((pwrite_fn) wp_real(R_PWRITE)) (fd, buf, count, offset);
}

WP_EXPORT ssize_t
pwrite64(int fd, const void *buf, size_t count, off64_t offset)
{
	if (wp_attached())
		return wp_paced_write(R_PWRITE64, fd, buf, count, offset, 0);
	return ((pwrite64_fn) wp_real(R_PWRITE64)) (fd, buf, count, offset);
}

WP_EXPORT ssize_t
writev(int fd, const struct iovec *iov, int iovcnt)
{
	if (wp_attached())
		return wp_paced_write(R_WRITEV, fd, iov, (size_t) iovcnt, 0, 0);
	return ((writev_fn) wp_real(R_WRITEV)) (fd, iov, iovcnt);
}

WP_EXPORT ssize_t
pwritev(int fd, const struct iovec *iov, int iovcnt, off_t offset)
{
	if (wp_attached())
		return wp_paced_write(R_PWRITEV, fd, iov, (size_t) iovcnt, offset, 0);
	return ((pwritev_fn) wp_real(R_PWRITEV)) (fd, iov, iovcnt, offset);
}

WP_EXPORT ssize_t
pwritev64(int fd, const struct iovec *iov, int iovcnt, off64_t offset)
{
	if (wp_attached())
		return wp_paced_write(R_PWRITEV64, fd, iov, (size_t) iovcnt, offset, 0);
	return ((pwritev64_fn) wp_real(R_PWRITEV64)) (fd, iov, iovcnt, offset);
}

WP_EXPORT ssize_t
pwritev2(int fd, const struct iovec *iov, int iovcnt, off_t offset, int flags)
{
	pwritev2_fn real = (pwritev2_fn) wp_real(R_PWRITEV2);

	if (wp_attached() || real == NULL)
		return wp_paced_write(R_PWRITEV2, fd, iov, (size_t) iovcnt, offset, flags);
	return real(fd, iov, iovcnt, offset, flags);
}

WP_EXPORT ssize_t
pwritev64v2(int fd, const struct iovec *iov, int iovcnt, off64_t offset,
			int flags)
{
	pwritev64v2_fn real = (pwritev64v2_fn) wp_real(R_PWRITEV64V2);

	if (wp_attached() || real == NULL)
		return wp_paced_write(R_PWRITEV64V2, fd, iov, (size_t) iovcnt, offset, flags);
	return real(fd, iov, iovcnt, offset, flags);
}

/*
 * The flushes: straight through unless a state is attached; then
 * wp_paced_flush runs the real call and, when it succeeded on a paced fd,
 * the charge and the wait.
 */
WP_EXPORT int
fsync(int fd)
{
	if (wp_attached())
		return wp_paced_flush(R_FSYNC, fd);
	return ((fd_fn) wp_real(R_FSYNC)) (fd);
}

WP_EXPORT int
fdatasync(int fd)
{
	if (wp_attached())
		return wp_paced_flush(R_FDATASYNC, fd);
	return ((fd_fn) wp_real(R_FDATASYNC)) (fd);
}

/*
 * syncfs on pg_wal's filesystem (recovery_init_sync_method = syncfs): one
 * flush of everything this process has dirty there.
 */
WP_EXPORT int
syncfs(int fd)
{
	fd_fn		real = (fd_fn) wp_real(R_SYNCFS);
	uint64_t	iops;
	WpPacerState *st = wp_active(&iops);
	uint64_t	arrival;
	int			rc;
	int			save_errno;
	struct stat sb;
	uint64_t	dirty = 0;
	uint64_t	gen;

	if (__builtin_expect(st == NULL, 1))
		return real(fd);
	arrival = wp_now();
	if ((rc = real(fd)) != 0)
		return rc;
	save_errno = errno;
	gen = __atomic_load_n(&st->generation, __ATOMIC_ACQUIRE);
	if (fstat(fd, &sb) == 0 && (uint64_t) sb.st_dev == wp_pacer_get(&st->dev))
	{
		dirty = wp_fds_take_dirty(gen);
		wp_sleep_until(st, wp_charge(st, iops, wp_flush_ios(st, dirty), arrival, true), gen);
	}
	errno = save_errno;
	return rc;
}

/*
 * sync_file_range with SYNC_FILE_RANGE_WRITE (pg_flush_data: the
 * *_flush_after settings): the fd's dirty bytes go to the disk now, as
 * write IOs reserved on the clock; the caller waits for them only with
 * SYNC_FILE_RANGE_WAIT_AFTER.  The range is not looked at: all the fd's
 * dirty bytes are charged.
 */
WP_EXPORT int
sync_file_range(int fd, off64_t offset, off64_t nbytes, unsigned int flags)
{
	sfr_fn		real = (sfr_fn) wp_real(R_SYNC_FILE_RANGE);
	uint64_t	iops;
	WpPacerState *st = wp_active(&iops);
	uint64_t	arrival;
	int			rc;
	int			save_errno;
	uint64_t	gen;
	WpFd		spare;
	WpFd	   *e;
	uint64_t	done;

	if (__builtin_expect(st == NULL, 1))
		return real(fd, offset, nbytes, flags);
	arrival = wp_now();
	rc = real(fd, offset, nbytes, flags);
	if (rc != 0 || (flags & SYNC_FILE_RANGE_WRITE) == 0)
		return rc;
	save_errno = errno;
	gen = __atomic_load_n(&st->generation, __ATOMIC_ACQUIRE);
	e = wp_fd(st, fd, true, &spare);
	if (e->kind != WP_FD_OTHER && e->dirty > 0)
	{
		done = wp_charge(st, iops,
						 (e->dirty + WP_PACER_IO_BYTES - 1) / WP_PACER_IO_BYTES,
						 arrival, false);
		e->dirty = 0;
		wp_add(&st->writebacks_paced, 1);
		if (flags & SYNC_FILE_RANGE_WAIT_AFTER)
			wp_sleep_until(st, done, gen);
	}
	errno = save_errno;
	return rc;
}

/*
 * close forgets the fd (its number will be reused).  Its dirty bytes, if
 * this process never flushed them, are left to the kernel's writeback,
 * which is not charged.  Always looked at, even detached: an entry made
 * while attached must not outlive its fd.
 */
WP_EXPORT int
close(int fd)
{
	fd_fn		real = (fd_fn) wp_real(R_CLOSE);

	wp_fd_forget(fd);
	return real(fd);
}

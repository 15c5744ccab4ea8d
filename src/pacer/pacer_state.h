/*-------------------------------------------------------------------------
 *
 * pacer_state.h
 *		The paced disk's shared state: the layout the extension writes and
 *		the preloaded shim (walpressure_pacer.c) reads, and the few inline
 *		functions both sides use to touch it.
 *
 * The extension allocates one WpPacerState in its shared memory, calls
 * wp_pacer_init on it, and hands it to walpressure_pacer_attach (found with
 * dlsym) in the postmaster, so that every server process inherits the
 * pointer by fork.  From then on the extension only calls
 * wp_pacer_configure (under a lock of its own: two configure calls must not
 * run at once) and reads the counters; the shim reads the settings and
 * moves the clock.
 *
 * Plain C11 and GCC __atomic builtins, no PostgreSQL header: the shim is
 * built without the server's headers and loaded into processes that have
 * none.  Every field is a uint64_t read and written with __atomic builtins
 * (the extension must not use pg_atomic_* on them), and the struct has a
 * fixed size, so a layout change is a new WP_PACER_VERSION.
 *
 * IDENTIFICATION
 *	  src/pacer/pacer_state.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_PACER_STATE_H
#define WALPRESSURE_PACER_STATE_H

#include <stdint.h>
#include <string.h>

/* "wppacer" in the high bytes, the layout's version in the low byte */
#define WP_PACER_VERSION		1
#define WP_PACER_MAGIC			(UINT64_C(0x7770706163657200) | WP_PACER_VERSION)

/* a flush of up to this much dirty data costs ios_per_flush IOs */
#define WP_PACER_IO_BYTES		(128 * 1024)
#define WP_PACER_IOS_PER_FLUSH	2

/* the names the extension looks up with dlsym(RTLD_DEFAULT, ...) */
#define WP_PACER_ATTACH_SYMBOL	"walpressure_pacer_attach"
#define WP_PACER_VERSION_SYMBOL "walpressure_pacer_version"

typedef int (*WpPacerAttachFn) (void *state);
typedef const char *(*WpPacerVersionFn) (void);

/*
 * One paced disk.  Three groups, each padded to its own 64-byte lines so
 * that the clock, which every paced flush moves, shares no line with the
 * settings every write reads.
 */
typedef struct WpPacerState
{
	/* written by wp_pacer_init only */
	uint64_t	magic;			/* WP_PACER_MAGIC */
	uint64_t	size;			/* sizeof(WpPacerState) */

	/* the settings: written by wp_pacer_configure only */
	uint64_t	iops;			/* IOs per second; 0 = off, pass through */
	uint64_t	ios_per_flush;	/* what a flush of <= 128 kB costs (0 reads
								 * as 1) */
	uint64_t	floor_ns;		/* least time of a flush on an idle disk */
	uint64_t	burst;			/* IOs the bucket lends after an idle time
								 * (below 1e9) */
	uint64_t	dev;			/* st_dev of pg_wal's filesystem: only files
								 * on it are paced */
	uint64_t	generation;		/* bumped by each wp_pacer_configure */
	uint64_t	pad_settings[8];

	/* the virtual clock: when the disk is next free, CLOCK_MONOTONIC ns */
	uint64_t	next_ns;
	uint64_t	pad_clock[7];

	/* counters: only grow, from wp_pacer_init on */
	uint64_t	ios_charged;	/* IOs put on the clock */
	uint64_t	flushes_paced;	/* fsync, fdatasync, syncfs, O_DSYNC writes */
	uint64_t	writebacks_paced;	/* sync_file_range writebacks charged */
	uint64_t	sleep_ns;		/* total time slept by callers */
	uint64_t	max_wait_ns;	/* the longest single sleep */
	uint64_t	waits_bounded;	/* sleeps cut at the 10 s bound */
	uint64_t	waits_woken;	/* sleeps ended early by a change of settings */
	uint64_t	pad_counters[9];
} WpPacerState;

_Static_assert(sizeof(WpPacerState) == 320, "WpPacerState changed size: bump WP_PACER_VERSION");

/*
 * Exported by walpressure_pacer.so (walpressure_pacer.c).  walpressure.so
 * must not call them by name (it would not load without the preload): it
 * looks them up with dlsym(RTLD_DEFAULT, WP_PACER_ATTACH_SYMBOL).
 */
extern int	walpressure_pacer_attach(void *state);
extern const char *walpressure_pacer_version(void);

/*
 * A field's value, as the shim and other processes see it (a relaxed
 * atomic load: each field is read on its own; none depends on another).
 */
static inline uint64_t
wp_pacer_get(const uint64_t *field)
{
	return __atomic_load_n(field, __ATOMIC_RELAXED);
}

/*
 * A fresh state: off (iops 0), the defaults, an idle disk, counters at
 * zero.  The magic is stored last, so that a process that sees it sees the
 * rest.
 */
static inline void
wp_pacer_init(WpPacerState *st)
{
	memset(st, 0, sizeof(*st));
	st->size = sizeof(*st);
	st->ios_per_flush = WP_PACER_IOS_PER_FLUSH;
	st->generation = 1;
	__atomic_store_n(&st->magic, WP_PACER_MAGIC, __ATOMIC_RELEASE);
}

/*
 * New settings, and a fresh disk (the clock is put back to idle: a queue
 * built up under the old rate is not carried over to the new).  The
 * generation is bumped last, which wakes every paced caller asleep on the
 * old settings within one sleep slice.  iops 0 turns pacing off.  Callers
 * serialise: two configure calls must not run at once.
 */
static inline void
wp_pacer_configure(WpPacerState *st, uint64_t iops, uint64_t ios_per_flush,
				   uint64_t floor_ns, uint64_t burst, uint64_t dev)
{
	__atomic_store_n(&st->iops, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&st->ios_per_flush, ios_per_flush, __ATOMIC_RELAXED);
	__atomic_store_n(&st->floor_ns, floor_ns, __ATOMIC_RELAXED);
	__atomic_store_n(&st->burst, burst, __ATOMIC_RELAXED);
	__atomic_store_n(&st->dev, dev, __ATOMIC_RELAXED);
	__atomic_store_n(&st->next_ns, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&st->iops, iops, __ATOMIC_RELEASE);
	__atomic_add_fetch(&st->generation, 1, __ATOMIC_RELEASE);
}

#endif							/* WALPRESSURE_PACER_STATE_H */

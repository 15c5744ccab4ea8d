/*-------------------------------------------------------------------------
 *
 * pacer_internal.h
 *		What the paced disk's files share (walpressure_pacer.c, the calls;
 *		pacer_fds.c, the fds; pacer_clock.c, the clock): nothing of it is
 *		exported from walpressure_pacer.so (-fvisibility=hidden).
 *
 * IDENTIFICATION
 *	  src/pacer/pacer_internal.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_PACER_INTERNAL_H
#define WALPRESSURE_PACER_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "pacer_state.h"

#define NS_PER_S		UINT64_C(1000000000)

/* a sleeper looks at the settings this often */
#define WP_SLICE_NS		(10 * UINT64_C(1000000))

/* the most one call sleeps: a safety bound, counted in waits_bounded */
#define WP_MAX_WAIT_NS	(10 * NS_PER_S)

/* fds of this process remembered; those above are classified each time */
#define WP_FD_TABLE		4096

/* what an fd is, for pacing */
typedef enum WpFdKind
{
	WP_FD_UNKNOWN = 0,			/* not looked at under this generation */
	WP_FD_OTHER,				/* not paced: another filesystem, a pipe, ... */
	WP_FD_PACED,				/* a file or directory on dev */
	WP_FD_PACED_SYNC			/* the same, opened O_DSYNC or O_SYNC */
} WpFdKind;

/*
 * One fd of this process.  Valid while gen equals the state's generation
 * (and close has not cleared it); ino tells a reused fd at each flush.
 */
typedef struct WpFd
{
	uint64_t	gen;
	uint64_t	ino;
	uint64_t	dirty;			/* bytes written since the last flush */
	uint32_t	kind;
	uint32_t	pad;
} WpFd;

/* the state walpressure attached (defined in pacer_clock.c, set by
 * walpressure_pacer_attach), NULL until then */
extern WpPacerState *wp_state;

/* CLOCK_MONOTONIC in ns (the vDSO: no system call, signal-safe). */
static inline uint64_t
wp_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * NS_PER_S + (uint64_t) ts.tv_nsec;
}

static inline void
wp_add(uint64_t *counter, uint64_t n)
{
	__atomic_fetch_add(counter, n, __ATOMIC_RELAXED);
}

/* pacer_fds.c */
extern WpFd *wp_fd(WpPacerState *st, int fd, bool verify, WpFd *spare);
extern void wp_fds_clear(void);
extern void wp_fd_forget(int fd);
extern uint64_t wp_fds_take_dirty(uint64_t gen);

/* pacer_clock.c */
extern uint64_t wp_flush_ios(WpPacerState *st, uint64_t bytes);
extern uint64_t wp_charge(WpPacerState *st, uint64_t iops, uint64_t k, uint64_t arrival,
						  bool flush);
extern void wp_sleep_until(WpPacerState *st, uint64_t until, uint64_t gen);

#endif							/* WALPRESSURE_PACER_INTERNAL_H */

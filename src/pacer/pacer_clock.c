/*-------------------------------------------------------------------------
 *
 * pacer_clock.c
 *		The paced disk's virtual clock: what a flush costs in IOs, a batch
 *		of IOs put on the clock in arrival order among every process, and
 *		the sleep until they complete.
 *
 * IDENTIFICATION
 *	  src/pacer/pacer_clock.c
 *
 *-------------------------------------------------------------------------
 */
#undef _FILE_OFFSET_BITS		/* pwrite must stay pwrite, not pwrite64 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "pacer_state.h"
#include "pacer_internal.h"

/*
 * The state the clock runs on: attached in the postmaster by
 * walpressure_pacer_attach (walpressure_pacer.c), inherited by fork.
 */
WpPacerState *wp_state;

/* IOs a flush of `bytes` dirty bytes costs. */
uint64_t
wp_flush_ios(WpPacerState *st, uint64_t bytes)
{
	uint64_t	per_flush = wp_pacer_get(&st->ios_per_flush);
	uint64_t	data = (bytes + WP_PACER_IO_BYTES - 1) / WP_PACER_IO_BYTES;

	return (per_flush > 0 ? per_flush - 1 : 0) + (data > 0 ? data : 1);
}

/*
 * Put k IOs arriving at `arrival` on the clock, in arrival order among
 * every paced process, and return when they complete (with the floor of a
 * flush, when it is one).
 */
uint64_t
wp_charge(WpPacerState *st, uint64_t iops, uint64_t k, uint64_t arrival,
		  bool flush)
{
	uint64_t	cost = k * NS_PER_S / iops;
	uint64_t	lend = wp_pacer_get(&st->burst) * NS_PER_S / iops;
	uint64_t	earliest = arrival > lend ? arrival - lend : 0;
	uint64_t	old = __atomic_load_n(&st->next_ns, __ATOMIC_RELAXED);
	uint64_t	end;
	uint64_t	floor_end;

	do
	{
		end = (old > earliest ? old : earliest) + cost;
	} while (!__atomic_compare_exchange_n(&st->next_ns, &old, end, true,
										  __ATOMIC_ACQ_REL, __ATOMIC_RELAXED));
	wp_add(&st->ios_charged, k);
	if (!flush)
		return end;
	wp_add(&st->flushes_paced, 1);
	floor_end = arrival + wp_pacer_get(&st->floor_ns);
	return end > floor_end ? end : floor_end;
}

/*
 * Sleep until `until` on CLOCK_MONOTONIC: in slices of at most 10 ms, over
 * EINTR, ending early when the settings of generation `gen` change or the
 * state is detached, and for at most 10 s.  Counts what it slept.
 */
void
wp_sleep_until(WpPacerState *st, uint64_t until, uint64_t gen)
{
	uint64_t	start = wp_now();
	uint64_t	t = start;
	uint64_t	slept;
	uint64_t	longest;

	if (until <= start)
		return;
	if (until - start > WP_MAX_WAIT_NS)
	{
		until = start + WP_MAX_WAIT_NS;
		wp_add(&st->waits_bounded, 1);
	}
	while (t < until)
	{
		uint64_t	slice_end = until - t > WP_SLICE_NS ? t + WP_SLICE_NS : until;
		struct timespec ts;
		int			rc;

		ts.tv_sec = (time_t) (slice_end / NS_PER_S);
		ts.tv_nsec = (long) (slice_end % NS_PER_S);
		while ((rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL)) == EINTR)
			;
		t = wp_now();
		if (rc != 0)
			break;
		if (__atomic_load_n(&st->generation, __ATOMIC_ACQUIRE) != gen ||
			__atomic_load_n(&wp_state, __ATOMIC_ACQUIRE) != st)
		{
			if (t < until)
				wp_add(&st->waits_woken, 1);
			break;
		}
	}
	slept = t - start;
	wp_add(&st->sleep_ns, slept);
	longest = __atomic_load_n(&st->max_wait_ns, __ATOMIC_RELAXED);
	while (slept > longest &&
		   !__atomic_compare_exchange_n(&st->max_wait_ns, &longest, slept, true,
										__ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}


/*-------------------------------------------------------------------------
 *
 * histogram.h
 *		The log-linear latency histogram (histogram.c).
 *
 * IDENTIFICATION
 *	  src/common/histogram.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_HISTOGRAM_H
#define WALPRESSURE_HISTOGRAM_H

#include "port/atomics.h"

/*
 * Add to a counter that only the calling process writes: a plain read and
 * write, no locked instruction (see shmem.c's locking notes).
 */
static inline void
wp_owned_add(pg_atomic_uint64 *counter, uint64 n)
{
	pg_atomic_write_u64(counter, pg_atomic_read_u64(counter) + n);
}

/*
 * Log-linear histogram of durations in microseconds: exact below 16 us,
 * then 8 linear sub-buckets per power of two up to 2^30 us (about 18
 * minutes), larger values in the last bucket.  A bucket is at most 12.5%
 * wide, and percentiles interpolate inside it.
 */
#define WP_HIST_LINEAR		16
#define WP_HIST_SUB_BITS	3
#define WP_HIST_SUB			(1 << WP_HIST_SUB_BITS)
#define WP_HIST_MAX_BIT		30
#define WP_HIST_BUCKETS \
	(WP_HIST_LINEAR + (WP_HIST_MAX_BIT - 4 + 1) * WP_HIST_SUB)

/* A histogram written by one process only (see shmem.c's locking notes). */
typedef struct WpHist
{
	pg_atomic_uint64 bucket[WP_HIST_BUCKETS];
} WpHist;

/* A plain copy: a sum over processes, a snapshot, or a difference. */
typedef struct WpHistSnap
{
	uint64		bucket[WP_HIST_BUCKETS];
} WpHistSnap;

extern int	wp_hist_bucket(uint64 usec);
extern void wp_hist_add_owned(WpHist *hist, uint64 usec);
extern void wp_hist_add_owned_n(WpHist *hist, uint64 usec, uint64 n);
extern void wp_hist_accumulate(WpHistSnap *sum, const WpHist *hist);
extern void wp_hist_subtract(WpHistSnap *result, const WpHistSnap *later,
							 const WpHistSnap *earlier);
extern uint64 wp_hist_count(const WpHistSnap *snap);
extern double wp_hist_percentile(const WpHistSnap *snap, double fraction);

#endif							/* WALPRESSURE_HISTOGRAM_H */

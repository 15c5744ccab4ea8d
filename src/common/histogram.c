/*-------------------------------------------------------------------------
 *
 * histogram.c
 *		Log-linear latency histograms: recording one duration, summing
 *		processes, subtracting snapshots, and reading percentiles.
 *
 * A duration in microseconds falls in a bucket that is exact below 16 us
 * and then 1/8 of a power of two wide, so any percentile read from it is
 * within a few percent of the true one whatever the scale, with a fixed
 * number of buckets and a record cost of one increment.
 *
 * IDENTIFICATION
 *	  src/common/histogram.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "port/pg_bitutils.h"

#include "common/histogram.h"

/*
 * The bucket of a duration.
 */
int
wp_hist_bucket(uint64 usec)
{
	int			msb;

	if (usec < WP_HIST_LINEAR)
		return (int) usec;
	msb = pg_leftmost_one_pos64(usec);
	if (msb > WP_HIST_MAX_BIT)
		return WP_HIST_BUCKETS - 1;
	return WP_HIST_LINEAR + (msb - 4) * WP_HIST_SUB +
		(int) ((usec >> (msb - WP_HIST_SUB_BITS)) & (WP_HIST_SUB - 1));
}

/*
 * The lower bound and width of a bucket, in microseconds.
 */
static void
wp_hist_bucket_range(int bucket, double *lower, double *width)
{
	int			msb;
	int			sub;

	if (bucket < WP_HIST_LINEAR)
	{
		*lower = bucket;
		*width = 1;
		return;
	}
	msb = 4 + (bucket - WP_HIST_LINEAR) / WP_HIST_SUB;
	sub = (bucket - WP_HIST_LINEAR) % WP_HIST_SUB;
	*lower = (double) ((uint64) (WP_HIST_SUB + sub) << (msb - WP_HIST_SUB_BITS));
	*width = (double) ((uint64) 1 << (msb - WP_HIST_SUB_BITS));
}

/*
 * Record one duration in a histogram that only the calling process writes:
 * a plain read and write of the counter, no locked instruction.
 */
void
wp_hist_add_owned(WpHist *hist, uint64 usec)
{
	wp_owned_add(&hist->bucket[wp_hist_bucket(usec)], 1);
}

/* `n` durations of `usec` each, in one addition. */
void
wp_hist_add_owned_n(WpHist *hist, uint64 usec, uint64 n)
{
	wp_owned_add(&hist->bucket[wp_hist_bucket(usec)], n);
}

/*
 * Add a shared histogram into a plain sum.
 */
void
wp_hist_accumulate(WpHistSnap *sum, const WpHist *hist)
{
	for (int i = 0; i < WP_HIST_BUCKETS; i++)
		sum->bucket[i] += pg_atomic_read_u64((pg_atomic_uint64 *) &hist->bucket[i]);
}

/*
 * result = later - earlier, for two snapshots of the same cumulative
 * histogram.  A bucket that went backwards (cannot happen while the server
 * runs) reads as zero.
 */
void
wp_hist_subtract(WpHistSnap *result, const WpHistSnap *later,
				 const WpHistSnap *earlier)
{
	for (int i = 0; i < WP_HIST_BUCKETS; i++)
		result->bucket[i] = later->bucket[i] > earlier->bucket[i] ?
			later->bucket[i] - earlier->bucket[i] : 0;
}

/*
 * Number of durations recorded.
 */
uint64
wp_hist_count(const WpHistSnap *snap)
{
	uint64		n = 0;

	for (int i = 0; i < WP_HIST_BUCKETS; i++)
		n += snap->bucket[i];
	return n;
}

/*
 * The duration below which `fraction` of the recorded ones fall, in
 * microseconds, interpolated linearly inside its bucket; -1 when empty.
 */
double
wp_hist_percentile(const WpHistSnap *snap, double fraction)
{
	uint64		n = wp_hist_count(snap);
	double		rank;
	double		below = 0;

	if (n == 0)
		return -1;
	rank = fraction * (double) n;
	for (int i = 0; i < WP_HIST_BUCKETS; i++)
	{
		double		c = (double) snap->bucket[i];
		double		lower;
		double		width;

		if (c == 0)
			continue;
		if (below + c >= rank)
		{
			wp_hist_bucket_range(i, &lower, &width);
			return lower + width * Max(rank - below, 0.0) / c;
		}
		below += c;
	}
	/* rounding left rank a hair above n: the top of the last bucket used */
	for (int i = WP_HIST_BUCKETS - 1; i >= 0; i--)
	{
		if (snap->bucket[i] > 0)
		{
			double		lower;
			double		width;

			wp_hist_bucket_range(i, &lower, &width);
			return lower + width;
		}
	}
	return -1;
}

/*-------------------------------------------------------------------------
 *
 * live_views.c
 *		The SQL-callable functions behind walpressure's live views:
 *		live_figures() for walpressure.live, sample_rows() for
 *		walpressure.samples, and reset().
 *
 * They only read shared memory (and reset() only rewrites the baseline);
 * the views round and name the figures.
 *
 * IDENTIFICATION
 *	  src/api/live_views.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "access/htup_details.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/shmem.h"
#include "utils/builtins.h"
#include "utils/pg_lsn.h"
#include "utils/timestamp.h"
#include "utils/tuplestore.h"

#include "system/cgroup.h"
#include "system/walsenders.h"
#include "live/shmem.h"

PG_FUNCTION_INFO_V1(wp_live_figures);
PG_FUNCTION_INFO_V1(wp_sample_rows);
PG_FUNCTION_INFO_V1(wp_reset);

#define WP_LIVE_WINDOW_MS	60000
#define WP_LIVE_COLS		21	/* 19 before 0.6.0: the row is cut to the SQL's */
#define WP_SAMPLE_COLS		25

/*
 * Differences of two counters, as the views want them.  Counters only grow
 * while the server runs; pg_stat_reset_shared() can still send pg_stat_wal's
 * back, and such an interval counts as zero rather than as garbage.
 */
#define DELTA(field) \
	((double) (end->field > start->field ? end->field - start->field : 0))

/*
 * A figure that is undefined when its denominator is zero is a NULL.
 */
static inline void
wp_set_ratio(Datum *values, bool *nulls, int col, double num, double den)
{
	if (den > 0)
		values[col] = Float8GetDatum(num / den);
	else
		nulls[col] = true;
}

/*
 * A percentile from the histogram, in milliseconds; NULL when empty.
 */
static inline void
wp_set_percentile(Datum *values, bool *nulls, int col,
				  const WpHistSnap *hist, double fraction)
{
	double		us = wp_hist_percentile(hist, fraction);

	if (us >= 0)
		values[col] = Float8GetDatum(us / 1000.0);
	else
		nulls[col] = true;
}

/*
 * One row of walpressure.live: the activity between start and end.
 */
static void
wp_live_row(Tuplestorestate *ts, TupleDesc desc, const char *window,
			const WpCounters *start, const WpHistPair *start_hist,
			const WpCounters *end, const WpHistPair *end_hist)
{
	Datum		values[WP_LIVE_COLS];
	bool		nulls[WP_LIVE_COLS];
	double		seconds = (double) (end->ts - start->ts) / USECS_PER_SEC;
	double		commits = DELTA(commits);
	/*
	 * pg_stat_wal shows a backend's fsyncs up to a second late, the probe
	 * counts the leaders' at once: every leader's fsync is a WAL fsync, so
	 * the row never shows fewer WAL fsyncs than its leaders did.
	 */
	double		wal_fsyncs = Max(DELTA(wal_sync), DELTA(leader_fsyncs));
	WpHistSnap *delta = palloc(sizeof(WpHistSnap));

	memset(nulls, 0, sizeof(nulls));
	values[0] = CStringGetTextDatum(window);
	values[1] = TimestampTzGetDatum(start->ts);
	values[2] = Float8GetDatum(seconds);
	values[3] = Int64GetDatum((int64) commits);
	wp_set_ratio(values, nulls, 4, commits, seconds);
	values[5] = Int64GetDatum((int64) wal_fsyncs);
	wp_set_ratio(values, nulls, 6, wal_fsyncs, seconds);
	values[7] = Int64GetDatum((int64) DELTA(leader_fsyncs));
	wp_set_ratio(values, nulls, 8, commits, wal_fsyncs);
	/* of the commits told leader or follower (18: in exact_leaders sessions) */
	wp_set_ratio(values, nulls, 9, 100.0 * DELTA(leaders), DELTA(probed));

	/* fsync latency: the leaders' own; else the server's average */
	if (DELTA(timed_fsyncs) > 0)
		wp_set_ratio(values, nulls, 10, DELTA(fsync_time_us) / 1000.0,
					 DELTA(timed_fsyncs));
	else
		wp_set_ratio(values, nulls, 10, DELTA(wal_sync_time_us) / 1000.0,
					 DELTA(wal_sync_time_us) > 0 ? wal_fsyncs : 0);
	wp_hist_subtract(delta, &end_hist->fsync, &start_hist->fsync);
	wp_set_percentile(values, nulls, 11, delta, 0.50);
	wp_set_percentile(values, nulls, 12, delta, 0.99);

	wp_set_ratio(values, nulls, 13, DELTA(commit_time_us) / 1000.0, commits);
	wp_hist_subtract(delta, &end_hist->commit, &start_hist->commit);
	wp_set_percentile(values, nulls, 14, delta, 0.50);
	wp_set_percentile(values, nulls, 15, delta, 0.99);

	wp_set_ratio(values, nulls, 16, DELTA(wal_bytes) / (1024.0 * 1024.0), seconds);
	wp_set_ratio(values, nulls, 17, 100.0 * DELTA(wal_fpi), DELTA(wal_records));
	wp_set_ratio(values, nulls, 18, DELTA(wal_buffers_full), seconds);

	/*
	 * the time commits waited for standbys (the sampler's, while standbys
	 * are named and walsenders run), as a share of their commit time and per
	 * commit; none otherwise
	 */
	if (DELTA(syncrep_wait_us) > 0 || wp_syncrep_possible())
	{
		wp_set_ratio(values, nulls, 19, Min(100.0 * DELTA(syncrep_wait_us), 100.0 * DELTA(commit_time_us)),
					 DELTA(commit_time_us));
		wp_set_ratio(values, nulls, 20, DELTA(syncrep_wait_us) / 1000.0, commits);
	}
	else
		nulls[19] = nulls[20] = true;

	tuplestore_putvalues(ts, desc, values, nulls);
	pfree(delta);
}

/*
 * live_figures(): two rows, since the last reset and over the last minute.
 * The end point is now; the minute's start is the newest kept snapshot at
 * least a minute old, or the reset baseline when none is (so within a
 * minute of a reset both rows cover the same time).
 */
Datum
wp_live_figures(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	WpCounters	end;
	WpHistPair *end_hist = palloc(sizeof(WpHistPair));
	WpMinuteEntry *base = palloc(sizeof(WpMinuteEntry));
	WpMinuteEntry *minute = palloc(sizeof(WpMinuteEntry));
	TimestampTz cutoff;

	wp_require_preload();
	InitMaterializedSRF(fcinfo, 0);

	wp_read_counters(&end, end_hist);
	cutoff = TimestampTzPlusMilliseconds(end.ts, -WP_LIVE_WINDOW_MS);

	wp_minute_start(cutoff, base, minute);

	wp_live_row(rsinfo->setResult, rsinfo->setDesc, "since reset",
				&base->c, &base->hist, &end, end_hist);
	wp_live_row(rsinfo->setResult, rsinfo->setDesc, "last 60 s",
				&minute->c, &minute->hist, &end, end_hist);

	return (Datum) 0;
}

/*
 * One row of walpressure.samples: the interval that `s` closes, from the
 * sample before it (`prev`), or from the reset baseline (`base`, prev NULL).
 */
static void
wp_sample_row(Tuplestorestate *ts, TupleDesc desc, const WpCounters *base,
			  const WpSample *prev, const WpSample *s)
{
	Datum		values[WP_SAMPLE_COLS];
	bool		nulls[WP_SAMPLE_COLS];
	const WpCounters *start = prev ? &prev->c : base;
	const WpCounters *end = &s->c;
	/* as in walpressure.live: never fewer than the leaders' own fsyncs */
	double		wal_fsyncs = Max(DELTA(wal_sync), DELTA(leader_fsyncs));
	double		seconds = (double) (end->ts - start->ts) / USECS_PER_SEC;

	memset(nulls, 0, sizeof(nulls));
	values[0] = TimestampTzGetDatum(end->ts);
	values[1] = Float8GetDatum(seconds);
	values[2] = Int64GetDatum((int64) DELTA(commits));
	values[3] = Int64GetDatum((int64) DELTA(leaders));
	values[4] = Int64GetDatum((int64) wal_fsyncs);
	values[5] = Int64GetDatum((int64) DELTA(wal_write));
	wp_set_ratio(values, nulls, 6, DELTA(commits), wal_fsyncs);
	values[7] = Int64GetDatum((int64) DELTA(wal_records));
	values[8] = Int64GetDatum((int64) DELTA(wal_fpi));
	values[9] = Int64GetDatum((int64) DELTA(wal_bytes));
	values[10] = Int64GetDatum((int64) DELTA(wal_buffers_full));
	values[11] = Float8GetDatum(s->commit_p50_us / 1000.0);
	nulls[11] = s->commit_p50_us < 0;
	values[12] = Float8GetDatum(s->commit_p99_us / 1000.0);
	nulls[12] = s->commit_p99_us < 0;
	values[13] = Float8GetDatum(s->fsync_p50_us / 1000.0);
	nulls[13] = s->fsync_p50_us < 0;
	values[14] = Float8GetDatum(s->fsync_p99_us / 1000.0);
	nulls[14] = s->fsync_p99_us < 0;
	values[15] = LSNGetDatum(end->insert_lsn);
	nulls[15] = XLogRecPtrIsInvalid(end->insert_lsn);
	values[16] = LSNGetDatum(end->flush_lsn);
	nulls[16] = XLogRecPtrIsInvalid(end->flush_lsn);
	values[17] = Int64GetDatum((int64) DELTA(ckpt_timed));
	values[18] = Int64GetDatum((int64) DELTA(ckpt_requested));
	values[19] = Int32GetDatum(s->wait_walwrite_lock);
	values[20] = Int32GetDatum(s->wait_wal_sync);
	values[21] = Int32GetDatum(s->wait_wal_write);
	values[22] = Int32GetDatum(s->wait_other);
	nulls[23] = nulls[24] = true;
	/* device IOPS: only between two samples read from the same counters */
	if (prev != NULL && prev->ios_source == s->ios_source && s->ios_source != 0 &&
		seconds > 0)
	{
		values[23] = Float8GetDatum((s->dev_reads - Min(prev->dev_reads, s->dev_reads)) / seconds);
		values[24] = Float8GetDatum((s->dev_writes - Min(prev->dev_writes, s->dev_writes)) / seconds);
		nulls[23] = nulls[24] = false;
	}

	tuplestore_putvalues(ts, desc, values, nulls);
}

/*
 * sample_rows(): the ring, oldest first.  Each row is the interval between
 * a sample and the one before it (the reset baseline for the first).
 */
Datum
wp_sample_rows(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	WpSample   *copy;
	WpCounters	base;
	uint64		taken;
	int			ring_size;
	int			kept;

	wp_require_preload();
	InitMaterializedSRF(fcinfo, 0);

	ring_size = wp_shared->ring_size;
	copy = palloc(mul_size(ring_size, sizeof(WpSample)));
	LWLockAcquire(wp_shared->lock, LW_SHARED);
	taken = wp_shared->samples_taken;
	base = wp_shared->base;
	memcpy(copy, wp_ring, mul_size(ring_size, sizeof(WpSample)));
	LWLockRelease(wp_shared->lock);

	kept = (int) Min(taken, (uint64) ring_size);
	for (uint64 i = taken - kept; i < taken; i++)
	{
		const WpSample *s = &copy[i % ring_size];

		if (i == 0)
			wp_sample_row(rsinfo->setResult, rsinfo->setDesc, &base, NULL, s);
		else if (i > taken - kept)
			wp_sample_row(rsinfo->setResult, rsinfo->setDesc, &base,
						  &copy[(i - 1) % ring_size], s);
		/* else: the oldest kept sample, whose predecessor is overwritten */
	}

	pfree(copy);
	return (Datum) 0;
}

/*
 * reset(): start every figure of walpressure.live and walpressure.samples
 * afresh from now.
 */
Datum
wp_reset(PG_FUNCTION_ARGS)
{
	wp_require_preload();
	wp_counters_reset();
	PG_RETURN_VOID();
}

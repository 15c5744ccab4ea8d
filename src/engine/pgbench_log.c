/*-------------------------------------------------------------------------
 *
 * pgbench_log.c
 *		pgbench's per-transaction logs, read once it has ended: the totals,
 *		latency histogram and per-second figures of the transactions that
 *		ended inside a step's measured window.
 *
 * IDENTIFICATION
 *	  src/engine/pgbench_log.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <dirent.h>

#include "utils/timestamp.h"

#include "sweep/figures.h"
#include "engine/pgbench_log.h"

#define WP_SECOND_HISTS			3600	/* seconds with their own percentiles */

/* A per-transaction log line's end time as a TimestampTz. */
static TimestampTz
wp_epoch_to_timestamptz(int64 sec, int64 usec)
{
	return sec * USECS_PER_SEC + usec -
		((int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * USECS_PER_DAY);
}

/* The second (index into marks) a transaction that ended at `ts` is in. */
static int
wp_second_of(TimestampTz ts, const TimestampTz *marks, int nmarks)
{
	int			lo = 0;
	int			hi = nmarks;

	while (lo < hi)
	{
		int			mid = (lo + hi) / 2;

		if (marks[mid] < ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * One line of a per-transaction log, ended at `ts` inside the window, into
 * the window's totals and its second's: `time` the latency in microseconds
 * (or a word: failed, skipped), `lag` the schedule lag (open loop; < 0:
 * none).  The latency of an open-loop transaction counts from its scheduled
 * start, so it includes the lag, as a user arriving at that time sees it.
 */
static void
wp_log_line(WpLoadTotals *window, const char *time, double lag_us, double limit_us,
			uint64 *count, WpHistSnap *second)
{
	char	   *endp;
	double		us = strtod(time, &endp);

	if (*endp != '\0')
	{
		if (strcmp(time, "skipped") == 0)
			window->skipped++;
		else
			window->retries++;	/* failed */
		return;
	}
	window->txns++;
	window->latency_ms += us / 1000.0;
	window->latency_sq_ms += (us / 1000.0) * (us / 1000.0);
	window->hist.bucket[wp_hist_bucket((uint64) us)]++;
	if (limit_us > 0 && us > limit_us)
		window->late++;
	if (lag_us >= 0)
	{
		window->lag_ms += lag_us / 1000.0;
		window->lag_hist.bucket[wp_hist_bucket((uint64) lag_us)]++;
	}
	if (count != NULL)
		(*count)++;
	if (second != NULL)
		second->bucket[wp_hist_bucket((uint64) us)]++;
}

/*
 * Read pgbench's per-transaction logs: "client_id transaction_no time
 * script_no time_epoch time_us [schedule_lag]", time the latency in
 * microseconds (or a word for a failed or skipped transaction), the lag
 * there with --rate.  `limit_ms`: the latency limit (late transactions
 * are counted above it), 0: none.
 */
void
wp_pgbench_log_read(const char *dir, TimestampTz start, TimestampTz end, double limit_ms,
					WpLoadTotals *window, const TimestampTz *marks, int nmarks,
					WpLoadSecond *seconds)
{
	DIR		   *d = opendir(dir);
	struct dirent *e;
	int			nhists = Min(nmarks, WP_SECOND_HISTS);
	WpHistSnap *hists = palloc0(sizeof(WpHistSnap) * Max(nhists, 1));
	uint64	   *counts = palloc0(sizeof(uint64) * Max(nmarks, 1));

	memset(window, 0, sizeof(WpLoadTotals));
	if (d == NULL)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not read pgbench's logs in \"%s\": %m", dir)));
	while ((e = readdir(d)) != NULL)
	{
		char		path[MAXPGPATH];
		FILE	   *f;
		char		line[256];

		if (strncmp(e->d_name, "log.", 4) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if ((f = fopen(path, "r")) == NULL)
			continue;
		while (fgets(line, sizeof(line), f) != NULL)
		{
			long		client;
			long		txn;
			char		time[32];
			int			script;
			long long	sec;
			long long	usec;
			long long	lag = -1;
			TimestampTz ts;
			int			i;

			if (sscanf(line, "%ld %ld %31s %d %lld %lld %lld", &client, &txn, time, &script,
					   &sec, &usec, &lag) < 6)
				continue;
			ts = wp_epoch_to_timestamptz(sec, usec);
			if (ts <= start || ts > end)
				continue;
			i = wp_second_of(ts, marks, nmarks);
			wp_log_line(window, time, (double) lag, limit_ms * 1000.0,
						i < nmarks ? &counts[i] : NULL, i < nhists ? &hists[i] : NULL);
		}
		fclose(f);
	}
	closedir(d);

	for (int i = 0; i < nmarks; i++)
	{
		double		secs = (marks[i] - (i > 0 ? marks[i - 1] : start)) / (double) USECS_PER_SEC;

		seconds[i].tps = secs > 0 ? counts[i] / secs : 0;
		seconds[i].latency_p50_ms = i < nhists ? wp_us_to_ms(wp_hist_percentile(&hists[i], 0.50)) : -1;
		seconds[i].latency_p99_ms = i < nhists ? wp_us_to_ms(wp_hist_percentile(&hists[i], 0.99)) : -1;
	}
}

/*-------------------------------------------------------------------------
 *
 * threshold.c
 *		Before a sweep's first step: what one WAL flush costs here (F0),
 *		and which side of the group-commit threshold lambda* = 2/F0 the load
 *		is on ("Group Commit Self-Clocks", arXiv 2606.18187).
 *
 * Above lambda* the paper argues that flushing as soon as the device is
 * free (commit_delay = 0) is within 0.1% of the best timer; below it, in
 * open loop, that the square-root rule's timer T* = sqrt(2 F0 / lambda)
 * is the one to use.  F0 is measured as probe_fsync() measures it, for a
 * second, at the first step's cap (the coordinator holds the cap), and
 * recorded in the sweep's row with its median and 99th percentile (a
 * cgroup throttle releases I/O in slices: most flushes cost what an
 * uncapped one does and a few stall for the rest of a slice, so the mean
 * and the median tell different stories: lambda* is read from the median).
 * The load is the rate asked; a closed loop's is its steps' own commit
 * rate, which only the sweep can tell (never the idle minute before it:
 * the findings read it after the sweep).  The words are SQL's,
 * _threshold_text(); the caller's plan NOTICE prints them.
 *
 * IDENTIFICATION
 *	  src/coordinator/threshold.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "utils/builtins.h"

#include "common/histogram.h"
#include "job/slot.h"
#include "live/shmem.h"
#include "system/disk_probe.h"
#include "coordinator/row_writer.h"
#include "coordinator/threshold.h"

#define WP_THRESHOLD_PROBE_US	1000000 /* F0's probe: one second */

/* Does a setting of this name decide how commits group? */
static bool
wp_groups_commits(const char *name)
{
	return strcmp(name, "commit_delay") == 0 || strcmp(name, "commit_siblings") == 0;
}

/*
 * Is the threshold this sweep's question?  An open loop (a rate asked or
 * swept), or commit_delay / commit_siblings swept, fixed or in a
 * configuration.
 */
static bool
wp_threshold_wanted(const WpSweepRequest *req)
{
	if (req->rate > 0 || strcmp(req->setting, "rate") == 0 || wp_groups_commits(req->setting))
		return true;
	for (int i = 0; i < req->nfixed; i++)
		if (wp_groups_commits(req->fixed[i].name))
			return true;
	for (int i = 0; i < req->ncfg; i++)
		if (wp_groups_commits(req->cfg[i].name))
			return true;
	return false;
}

/*
 * Measure F0 at the first step's cap, record it in sweep `id`'s row with
 * the threshold's words, and leave those for the caller's plan NOTICE.
 * Nothing when the sweep is not about how commits group.
 */
void
wp_threshold_measure(int64 id, const WpSweepRequest *req, WpCap *cap)
{
	WpDiskProbe probe;
	int64		first_cap = strcmp(req->setting, "iops_cap") == 0 ? req->ivals[0] : req->iops_cap;
	double		f0_ms;
	char	   *source;
	bool		isnull;
	Datum		note;

	/* a library newer than the extension's SQL (before ALTER EXTENSION UPDATE): none */
	if (!wp_threshold_wanted(req) || !wp_schema_has(700))
		return;
	if (cap->active && first_cap > 0)
		wp_cap_set(cap, wp_step_disk(req, 0), first_cap);
	wp_disk_probe_run(WP_THRESHOLD_PROBE_US, 8192, &probe);
	if (cap->active && first_cap > 0)
		wp_cap_release(cap);
	if (probe.ops == 0)
		return;
	f0_ms = probe.total_us / probe.ops / 1000.0;
	source = first_cap > 0 ?
		psprintf("probe_fsync at the sweep's cap of " INT64_FORMAT " write IOPS (%s), %.0f s, %lu flushes",
				 first_cap, wp_step_disk(req, 0) == WP_DISK_PACED ? "paced disk" : "cgroup throttle",
				 probe.seconds, (unsigned long) probe.ops) :
		psprintf("probe_fsync without a cap, %.0f s, %lu flushes", probe.seconds,
				 (unsigned long) probe.ops);

	wp_owner_begin();
	if (SPI_execute_with_args("UPDATE walpressure.sweeps SET f0_ms = $2, f0_p50_ms = $3, f0_p99_ms = $4, "
							  "f0_source = $5, threshold = walpressure._threshold_text($3, rate, NULL, setting) "
							  "WHERE sweep_id = $1 RETURNING threshold",
							  5, (Oid[]) {INT8OID, FLOAT8OID, FLOAT8OID, FLOAT8OID, TEXTOID},
							  (Datum[]) {Int64GetDatum(id), Float8GetDatum(f0_ms),
								  Float8GetDatum(wp_hist_percentile(&probe.hist, 0.50) / 1000.0),
								  Float8GetDatum(wp_hist_percentile(&probe.hist, 0.99) / 1000.0),
							  CStringGetTextDatum(source)},
							  NULL, false, 1) != SPI_OK_UPDATE_RETURNING || SPI_processed != 1)
		elog(ERROR, "could not record the flush cost of sweep " INT64_FORMAT, id);
	note = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
	if (!isnull)
		wp_job_note(TextDatumGetCString(note));
	wp_owner_end();
}

/*-------------------------------------------------------------------------
 *
 * step_run.c
 *		A step run, whichever way its values are chosen: the
 *		load's spec for the value, the rights checked again, the step run
 *		(step_measure.c), its rows recorded, and the NOTICE the waiting caller gets.
 *		The value x round loop (coordinator.c) and the search (search.c)
 *		both run their steps here.
 *
 * IDENTIFICATION
 *	  src/coordinator/step_run.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/xact.h"
#include "pgstat.h"
#include "utils/memutils.h"

#include "coordinator/step_run.h"
#include "coordinator/rows_step.h"
#include "job/slot.h"
#include "sweep/load.h"
#include "sweep/rights.h"

/* The steps of sweep `id` start here. */
void
wp_run_begin(WpRun *run, int64 id, const WpStepPlan *plan, MemoryContext step_cxt)
{
	memset(run, 0, sizeof(WpRun));
	run->id = id;
	run->plan = plan;
	run->step_cxt = step_cxt;
	run->max_samples = (int) ceil(plan->req->duration_s) + 1;
	run->samples = palloc(sizeof(WpStepSample) * run->max_samples);
}

/* What the waiting caller is told of a finished step. */
static char *
wp_step_message(const WpRun *run, int pos, int repeat, const WpStepResult *r)
{
	const WpSweepRequest *req = run->plan->req;

	/* open loop: the rate kept, and the latency a user arriving then saw */
	char	   *load = r->rate > 0 ?
		psprintf("%.1f tps of %g asked%s%s", r->tps, r->rate,
				 r->rate_sustained ? "" : " (NOT SUSTAINED: a closed loop in disguise)",
				 r->latency_p99_ms >= 0 ?
				 psprintf(", p99 %.2f ms (lag p99 %.2f ms)", r->latency_p99_ms, r->lag_p99_ms) : "") :
		psprintf("%.1f tps", r->tps);

	return psprintf("sweep " INT64_FORMAT " step %d/%d: %s = %s%s: %s, %s%s%s%s",
					run->id, run->step, run->total, req->setting, req->vals[pos],
					req->search != WP_SEARCH_NONE ? psprintf(" (round %d)", repeat) :
					req->repeats > 1 || req->auto_repeats ? psprintf(" (repeat %d)", repeat) : "",
					load,
					r->wal_fsyncs > 0 ?
					psprintf("%.2f commits per fsync", (double) r->commits / r->wal_fsyncs) :
					"no WAL fsyncs",
					r->write_iops >= 0 ? psprintf(", %.0f write IOPS", r->write_iops) : "",
					r->syncrep_wait_pct >= 0 ?
					psprintf(", %.0f%% of commit time waiting for the standby", r->syncrep_wait_pct) : "",
					r->standby_lost ? " (standby lost: the step is marked)" : "");
}

/*
 * After a step that lost its synchronous standby (recorded, marked): with
 * on_standby_loss => 'stop' the sweep fails here; with 'skip' it goes on.
 */
static void
wp_step_standby_policy(const WpSweepRequest *req, int step, const WpStepResult *r)
{
	if (!r->standby_lost || req->standby_loss_skip)
		return;
	ereport(ERROR,
			(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			 errmsg("step %d lost its synchronous standby; the sweep stops (on_standby_loss => 'stop')", step),
			 errdetail("%s.", r->discarded),
			 errhint("The steps before it are recorded; that step is marked. Run the sweep with on_standby_loss => 'skip' to go on without the steps that need a standby.")));
}

/*
 * Run value `pos` in round `repeat` as the sweep's next step and record
 * it.  Its NOTICE goes to the caller now, or with `tell` false when
 * wp_run_tell() adds what came of it (a search's decision).
 */
WpRunOutcome
wp_run_step(WpRun *run, int repeat, int pos, bool tell)
{
	const WpSweepRequest *req = run->plan->req;
	MemoryContext old = MemoryContextSwitchTo(run->step_cxt);
	WpLoadSpec *spec = palloc(sizeof(WpLoadSpec));
	WpStepResult r;
	int			nsamples;
	char	   *message;

	run->step++;
	pgstat_report_activity(STATE_RUNNING,
							psprintf("sweep " INT64_FORMAT " step %d/%d: %s = %s",
									 run->id, run->step, run->total, req->setting, req->vals[pos]));
	wp_load_spec(req, pos, wp_job_database(), wp_job_role(), spec);
	/* a right revoked during the sweep ends it here */
	StartTransactionCommand();
	wp_rights_recheck(req, run->step);
	CommitTransactionCommand();
	MemoryContextSwitchTo(run->step_cxt);
	if (!wp_step_run(run->plan, run->step, repeat, pos, spec, &r, run->samples, run->max_samples,
					 &nsamples))
	{
		MemoryContextSwitchTo(old);
		return WP_RUN_STOPPED;
	}
	if (r.skipped)
	{
		/* its standby was not there: nothing measured, nothing recorded */
		wp_job_step_done(run->step, psprintf("sweep " INT64_FORMAT " step %d/%d: %s = %s: %s",
											 run->id, run->step, run->total, req->setting,
											 req->vals[pos], r.discarded));
		wp_step_standby_policy(req, run->step, &r);
		MemoryContextSwitchTo(old);
		MemoryContextReset(run->step_cxt);
		return WP_RUN_SKIPPED;
	}
	wp_job_phase(WP_PHASE_RECORDING, run->step, repeat, req->vals[pos]);
	wp_results_step_insert(run->id, req, run->step, pos, repeat, spec, &r, run->samples, nsamples);
	/* the insert's commit left us in TopMemoryContext */
	MemoryContextSwitchTo(run->step_cxt);
	message = wp_step_message(run, pos, repeat, &r);
	run->done++;
	run->untold = MemoryContextStrdup(TopMemoryContext, message);
	if (tell || r.standby_lost)
		wp_run_tell(run, NULL);
	wp_step_standby_policy(req, run->step, &r);
	MemoryContextSwitchTo(old);
	MemoryContextReset(run->step_cxt);
	return WP_RUN_RECORDED;
}

/* The last recorded step's NOTICE, with `more` after it when given. */
void
wp_run_tell(WpRun *run, const char *more)
{
	if (run->untold == NULL)
		return;
	wp_job_step_done(run->step, more ? psprintf("%s; %s", run->untold, more) : run->untold);
	pfree(run->untold);
	run->untold = NULL;
}

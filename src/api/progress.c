/*-------------------------------------------------------------------------
 *
 * progress.c
 *		walpressure.progress: the job that runs, in the manner of
 *		pg_stat_progress_*, from a copy of the job slot (slot.c).
 *
 * IDENTIFICATION
 *	  src/api/progress.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "commands/dbcommands.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/timestamp.h"
#include "utils/tuplestore.h"

#include "job/slot.h"
#include "live/shmem.h"

PG_FUNCTION_INFO_V1(wp_progress);

/*
 * The estimated end: the steps left at the mean pace of those done, or,
 * before the first is done, at the planned length of a step.
 */
static TimestampTz
wp_estimated_end(const WpJobView *v, TimestampTz now)
{
	double		per_step;
	double		into_step = v->step_at ? (now - v->step_at) / (double) USECS_PER_SEC : 0;
	double		left;

	if (v->steps_done > 0 && v->first_step_at > 0)
		per_step = (v->last_done_at - v->first_step_at) / (double) USECS_PER_SEC / v->steps_done;
	else
		per_step = v->step_plan_s + 1.0;
	left = per_step * (v->steps_total - v->steps_done) - (v->step > v->steps_done ? into_step : 0);
	return now + (int64) (USECS_PER_SEC * Max(0.0, left));
}

/*
 * progress() returns the row of walpressure.progress; no row when no job
 * runs.
 */
Datum
wp_progress(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	Datum		values[14];
	bool		nulls[14];
	WpJobView	v;
	TimestampTz now = GetCurrentTimestamp();
	bool		sweep;
	char	   *db;
	const char *role;

	wp_require_preload();
	InitMaterializedSRF(fcinfo, 0);
	if (!wp_job_view(&v))
		return (Datum) 0;

	sweep = v.kind == WP_JOB_SWEEP;
	db = get_database_name(v.dboid);
	role = GetUserNameFromId(v.roleoid, true);
	memset(nulls, false, sizeof(nulls));
	values[0] = Int32GetDatum(v.caller_pid);
	values[1] = CStringGetTextDatum(sweep ? "sweep" : "init_pgbench");
	values[2] = Int64GetDatum(v.sweep_id);
	nulls[2] = v.sweep_id == 0;
	values[3] = CStringGetTextDatum(db ? db : "?");
	values[4] = CStringGetTextDatum(role ? role : "?");
	values[5] = Int32GetDatum(v.step);
	values[6] = Int32GetDatum(v.steps_total);
	values[7] = Int32GetDatum(v.steps_done);
	values[8] = CStringGetTextDatum(v.setting);
	values[9] = CStringGetTextDatum(v.value);
	values[10] = Int32GetDatum(v.repeat);
	nulls[8] = !sweep;
	nulls[9] = nulls[10] = !sweep || v.step == 0;
	values[11] = CStringGetTextDatum(sweep ? wp_phase_name(v.phase) : v.last_step);
	values[12] = Float8GetDatum((now - v.phase_at) / (double) USECS_PER_SEC);
	values[13] = TimestampTzGetDatum(wp_estimated_end(&v, now));
	nulls[13] = !sweep || v.steps_total == 0;

	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	return (Datum) 0;
}

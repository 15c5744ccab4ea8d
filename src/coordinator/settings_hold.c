/*-------------------------------------------------------------------------
 *
 * settings_hold.c
 *		A sweep's hold on the server-wide settings: recorded before the
 *		first change (restore/settings.c), each step's applied (with a
 *		sync of the data directory when fsync comes back on after a step
 *		with it off), and put back when the sweep ends.
 *
 * IDENTIFICATION
 *	  src/coordinator/settings_hold.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xlog.h"
#include "miscadmin.h"
#include "lib/stringinfo.h"
#include "utils/guc.h"

#include "common/worker.h"
#include "coordinator/rows_sweep.h"
#include "coordinator/settings_hold.h"
#include "job/slot.h"
#include "restore/record.h"
#include "restore/settings.h"
#include "sweep/configs.h"
#include "sweep/policy.h"
#include "system/alter_system.h"

/*
 * Apply name = value to the whole server, checked in effect.
 */
void
wp_server_settings_apply(WpCrashRecord *record, List *names, List *values)
{
	ListCell   *ln;
	ListCell   *lv;

	/* before fsync goes off: the mark that the data directory needs a sync */
	forboth(ln, names, lv, values)
		if (strcmp(lfirst(ln), "fsync") == 0 && wp_data_loss("fsync", lfirst(lv)) != NULL)
			wp_settings_mark_needs_sync(record);

	wp_alter_system_apply(names, values);

	/*
	 * fsync back on for a later step: what an earlier step wrote with fsync
	 * off goes to disk now, before this step is measured as safe
	 */
	if (enableFsync)
		wp_settings_sync_now(record);
}


/*
 * Take the server-wide settings for the sweep: record what to restore
 * (restore/settings.c), the values before the first change, then apply the
 * fixed ones.
 */
void
wp_server_begin(const WpSweepRequest *req, WpCrashRecord *record, WpServerHold *hold)
{
	StringInfoData orig;
	List	   *fixed_names = NIL;
	List	   *fixed_values = NIL;
	ListCell   *lc;

	for (int i = 0; i < req->nfixed; i++)
		if (req->fixed[i].kind == WP_PARAM_SERVER)
		{
			fixed_names = lappend(fixed_names, pstrdup(req->fixed[i].name));
			fixed_values = lappend(fixed_values, pstrdup(req->fixed[i].value));
		}
	hold->swept = wp_request_server_names(req);
	hold->names = list_concat(list_copy(fixed_names), hold->swept);
	if (hold->names == NIL)
		return;

	wp_job_phase(WP_PHASE_SETTINGS, 0, 0, NULL);
	wp_settings_record_begin(record, hold->names);
	hold->active = true;
	initStringInfo(&orig);
	foreach(lc, hold->names)
		appendStringInfo(&orig, "%s=%s\n", (char *) lfirst(lc),
						 GetConfigOption(lfirst(lc), false, false));
	foreach(lc, hold->swept)
		hold->swept_originals = lappend(hold->swept_originals,
										pstrdup(GetConfigOption(lfirst(lc), false, false)));
	hold->originals = orig.data;
	wp_results_server_originals(record->sweep_id, hold->names);
	if (fixed_names != NIL)
		wp_server_settings_apply(record, fixed_names, fixed_values);
}

/*
 * Put the server-wide settings back.  On failure a WARNING; the crash
 * record keeps them, so the restore worker (or the next server start)
 * restores them.
 */
void
wp_server_end(WpCrashRecord *record, WpServerHold *hold, bool check)
{
	MemoryContext cxt = CurrentMemoryContext;

	if (!hold->active)
		return;
	PG_TRY();
	{
		/* no new process starts while the server shuts down: no check then */
		hold->restored = wp_settings_restore(record, check, hold->originals);
		hold->active = false;
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		EmitErrorReport();
		edata = wp_catch_error(cxt);
		hold->restored = psprintf("NOT restored (%s): the restore worker restores them",
								  edata->message);
		ereport(WARNING,
				(errmsg("walpressure could not restore the server settings of sweep " INT64_FORMAT,
						record->sweep_id),
				 errhint("The restore worker, or the next server start, restores them.")));
	}
	PG_END_TRY();
}


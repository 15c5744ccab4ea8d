/*-------------------------------------------------------------------------
 *
 * guard.c
 *		DROP EXTENSION walpressure (or DROP SCHEMA walpressure ... CASCADE)
 *		while a sweep runs in the database is refused: its coordinator
 *		records each step in the extension's tables and puts back the
 *		settings and the cap it holds when it ends; dropping them under it
 *		would lose its results and its record of what to restore.
 *
 * A ProcessUtility hook, installed by _PG_init when the library is
 * preloaded; it looks only at DROP statements and costs nothing else.
 *
 * IDENTIFICATION
 *	  src/job/guard.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "nodes/parsenodes.h"
#include "tcop/utility.h"

#include "job/guard.h"
#include "job/slot_layout.h"

static ProcessUtility_hook_type wp_prev_utility = NULL;

/* Does this DROP name the extension, or its schema? */
static bool
wp_drops_walpressure(Node *parsetree)
{
	DropStmt   *drop;
	ListCell   *lc;

	if (!IsA(parsetree, DropStmt))
		return false;
	drop = (DropStmt *) parsetree;
	if (drop->removeType != OBJECT_EXTENSION && drop->removeType != OBJECT_SCHEMA)
		return false;
	foreach(lc, drop->objects)
	{
		Node	   *name = lfirst(lc);

		if (IsA(name, String) && strcmp(strVal(name), "walpressure") == 0)
			return true;
	}
	return false;
}

static void
wp_guard_utility(PlannedStmt *pstmt, const char *queryString, bool readOnlyTree,
				 ProcessUtilityContext context, ParamListInfo params,
				 QueryEnvironment *queryEnv, DestReceiver *dest, QueryCompletion *qc)
{
	if (wp_job != NULL && wp_drops_walpressure(pstmt->utilityStmt))
	{
		int64		running = 0;

		LWLockAcquire(wp_job->lock, LW_SHARED);
		if ((wp_job->state == WP_JOB_RUNNING || wp_job->state == WP_JOB_STARTING) &&
			wp_job->kind == WP_JOB_SWEEP && wp_job->dboid == MyDatabaseId)
			running = wp_job->sweep_id > 0 ? wp_job->sweep_id : -1;
		LWLockRelease(wp_job->lock);
		if (running > 0)
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_IN_USE),
					 errmsg("walpressure cannot be dropped while sweep " INT64_FORMAT " runs in this database",
							running),
					 errdetail("Its coordinator records each step in the extension's tables and puts back the settings and the cap it holds when it ends."),
					 errhint("Cancel it first with SELECT walpressure.cancel_sweep(" INT64_FORMAT ");",
							 running)));
		if (running < 0)
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_IN_USE),
					 errmsg("walpressure cannot be dropped while a sweep starts in this database"),
					 errhint("Try again when it has started, and cancel it with walpressure.cancel_sweep().")));
	}
	if (wp_prev_utility)
		wp_prev_utility(pstmt, queryString, readOnlyTree, context, params, queryEnv, dest, qc);
	else
		standard_ProcessUtility(pstmt, queryString, readOnlyTree, context, params, queryEnv,
								dest, qc);
}

void
wp_guard_register(void)
{
	wp_prev_utility = ProcessUtility_hook;
	ProcessUtility_hook = wp_guard_utility;
}

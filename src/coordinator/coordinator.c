/*-------------------------------------------------------------------------
 *
 * coordinator.c
 *		The coordinator: a dynamic background worker in the caller's
 *		database as the caller's role, started by run_sweep (job/slot.c) with a
 *		checked request.  It records the sweep row, takes the disk cap and
 *		the server-wide settings, runs each step (value x repeat, repeats
 *		interleaved so drift is not an effect, or the rounds of a search,
 *		search.c), records it, and at the end puts back everything it took.
 *
 * While it holds anything that must be put back, the crash record
 * (restore/record.c) says what, so that a crash is closed at the next start
 * and a coordinator that leaves without putting everything back is closed
 * by the restore worker.
 *
 * IDENTIFICATION
 *	  src/coordinator/coordinator.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/xact.h"
#include "utils/timestamp.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "tcop/tcopprot.h"
#include "catalog/pg_type.h"
#include "utils/array.h"
#include "utils/guc.h"
#include "utils/memutils.h"

#include "coordinator/coordinator.h"
#include "job/slot.h"
#include "engine/pgbench_engine.h"
#include "restore/record.h"
#include "restore/restore.h"
#include "system/standby_link.h"
#include "system/walsenders.h"
#include "coordinator/decision.h"
#include "coordinator/step_run.h"
#include "coordinator/search.h"
#include "sweep/golden.h"
#include "coordinator/row_writer.h"
#include "coordinator/rows_step.h"
#include "coordinator/rows_sweep.h"
#include "coordinator/threshold.h"
#include "sweep/rights.h"
#include "coordinator/settings_hold.h"
#include "sweep/configs.h"
#include "sweep/load.h"
#include "system/pgss.h"
#include "common/worker.h"


static volatile sig_atomic_t wp_terminated = false;
static volatile sig_atomic_t wp_cancelled_by_signal = false;
static bool wp_finished = false;

/*
 * SIGTERM: the server is shutting down, or someone terminated us.  SIGINT:
 * cancel_sweep, the waiting caller's Ctrl-C, or pg_cancel_backend.  Either
 * ends the sweep as cancelled: the flag stops the loop between steps, and
 * the interrupt cuts short what the coordinator waits for now (a
 * checkpoint, a prewarm); the coordinator runs none of the caller's code,
 * so nothing can swallow it.  What it holds is then put back with
 * interrupts held.
 */
static void
wp_coordinator_interrupt(void)
{
	wp_job_cancel_self();
	InterruptPending = true;
	QueryCancelPending = true;
	SetLatch(MyLatch);
}

static void
wp_coordinator_sigterm(SIGNAL_ARGS)
{
	int			save_errno = errno;

	wp_terminated = true;
	wp_coordinator_interrupt();
	errno = save_errno;
}

static void
wp_coordinator_sigint(SIGNAL_ARGS)
{
	int			save_errno = errno;

	/* cancel_sweep raises the flag first; a bare SIGINT is pg_cancel_backend */
	if (!wp_job_cancelled())
		wp_cancelled_by_signal = true;
	wp_coordinator_interrupt();
	errno = save_errno;
}

/*
 * On an exit that did not go through the end of wp_coordinator_main (a
 * FATAL error, a failed connection): free the slot, and have the sweep
 * closed as the recovery worker closes one after a crash.
 */
static void
wp_coordinator_exit(int code, Datum arg)
{
	ErrorData	edata = {0};

	if (wp_finished)
		return;
	/* no client may go on running the load */
	wp_backend_terminate_all();
	edata.sqlerrcode = ERRCODE_INTERNAL_ERROR;
	edata.message = "the coordinator exited unexpectedly (see the server log)";
	wp_job_finish("failed", &edata, wp_job_sweep_id());
	wp_restore_wake();
}

/*
 * Prewarm the pgbench tables run_sweep found in the caller's search_path
 * (their OIDs in the request), as the caller, so a step reads no data
 * blocks.
 */
static void
wp_prewarm_tables(const WpSweepRequest *req)
{
	Datum	   *oids = palloc(sizeof(Datum) * Max(req->nprewarm, 1));
	ArrayType  *rels;

	for (int i = 0; i < req->nprewarm; i++)
		oids[i] = ObjectIdGetDatum(req->prewarm_rels[i]);
	rels = construct_array(oids, req->nprewarm, REGCLASSOID, sizeof(Oid), true, TYPALIGN_INT);
	wp_job_phase(WP_PHASE_PREWARM, 0, 0, NULL);
	wp_xact_begin();
	if (SPI_execute_with_args("SELECT walpressure.prewarm($1)", 1, (Oid[]) {REGCLASSARRAYOID},
							  (Datum[]) {PointerGetDatum(rels)}, NULL, false, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not prewarm the pgbench tables");
	wp_xact_end();
}

/*
 * Every value in every round, the rounds interleaved; returns the status,
 * "done" or "cancelled".
 */
static const char *
wp_run_steps(int64 id, const WpStepPlan *plan, MemoryContext step_cxt)
{
	const WpSweepRequest *req = plan->req;
	int			rounds = req->repeats;	/* with auto_repeats, grows */
	TimestampTz started = GetCurrentTimestamp();
	WpRun		run;
	bool		stopped = false;

	wp_run_begin(&run, id, plan, step_cxt);
	run.total = req->nvals * rounds;
	for (int repeat = 1; repeat <= rounds && !stopped && !wp_job_cancelled(); repeat++)
	{
		for (int pos = 0; pos < req->nvals && !wp_job_cancelled(); pos++)
			if (wp_run_step(&run, repeat, pos, true) == WP_RUN_STOPPED)
			{
				stopped = true;
				break;
			}
		/* repeats => 'auto' or a budget: one more round, unless it is clear */
		if (req->auto_repeats && repeat == rounds && run.done == run.step && !stopped &&
			!wp_job_cancelled())
		{
			double		elapsed = (double) (GetCurrentTimestamp() - started) / USECS_PER_SEC;

			if (!wp_results_auto_decide(id, req, rounds, elapsed / rounds, elapsed))
			{
				rounds++;
				run.total = req->nvals * rounds;
				wp_job_set_total(run.total);
			}
		}
	}
	/* a cancel that came after the last step changes nothing */
	return wp_job_cancelled() && run.done < run.total ? "cancelled" : "done";
}

/*
 * The worker's start: its signals, its connection as the caller, a search
 * path of its own.
 */
static void
wp_coordinator_start(void)
{
	pqsignal(SIGTERM, wp_coordinator_sigterm);
	BackgroundWorkerUnblockSignals();
	before_shmem_exit(wp_coordinator_exit, 0);
	BackgroundWorkerInitializeConnectionByOid(wp_job_database(), wp_job_role(), 0);
	pqsignal(SIGINT, wp_coordinator_sigint);
	wp_job_worker_begin();
	pgstat_report_appname("walpressure coordinator");
	/* its own SQL resolves nothing of the caller's (the load gets its path) */
	SetConfigOption("search_path", "pg_catalog, pg_temp", PGC_SUSET, PGC_S_OVERRIDE);
	wp_repl_coordinator_begin();
	wp_statements_begin();
}

/*
 * The end of a sweep (`id` 0 when its row was never written): everything
 * it holds put back, its row closed, the crash record removed.  True when
 * something is left for the restore worker.
 */
static bool
wp_coordinator_put_back(WpStepPlan *plan, WpServerHold *hold, int64 id,
						const char *status, const char *error, MemoryContext cxt)
{
	bool		need_recovery = false;

	/*
	 * From here on the sweep puts back what it holds: no cancel or
	 * terminate interrupts that, until the worker exits (a second one stays
	 * pending).
	 */
	HOLD_INTERRUPTS();
	QueryCancelPending = false;
	wp_job_phase(WP_PHASE_RESTORE, 0, 0, NULL);
	wp_step_stop_load(plan);
	wp_standby_disconnect();
	if (id > 0)
	{
		bool		closed = true;

		if (wp_cap_end(plan->cap, id))
			plan->record->has_cap = false;
		wp_server_end(plan->record, hold, !wp_terminated);
		PG_TRY();
		{
			wp_results_sweep_close(id, status, error, hold->restored);
		}
		PG_CATCH();
		{
			/* the row stays "running"; the restore worker closes it */
			EmitErrorReport();
			(void) wp_catch_error(cxt);
			closed = false;
		}
		PG_END_TRY();
		/* everything back: the record goes; else the restore worker's */
		if (closed && !plan->record->has_cap && !plan->record->has_settings && !plan->record->needs_sync)
			wp_record_remove(LOG);
		else
		{
			wp_record_write(plan->record);
			need_recovery = true;
		}
	}
	return need_recovery;
}

/*
 * Entry point of the coordinator.
 */
void
wp_coordinator_main(Datum main_arg)
{
	WpSweepRequest *req;
	WpCap		cap = {0};
	WpServerHold hold = {0};
	WpCrashRecord record = {0};
	WpStepPlan	plan;
	MemoryContext cxt;
	MemoryContext step_cxt;
	const char *volatile status = "done";
	ErrorData  *volatile edata = NULL;
	char	   *volatile error = NULL;
	volatile int64 id = 0;
	bool		need_recovery = false;

	wp_coordinator_start();
	cxt = AllocSetContextCreate(TopMemoryContext, "walpressure coordinator",
								ALLOCSET_DEFAULT_SIZES);
	step_cxt = AllocSetContextCreate(cxt, "walpressure step", ALLOCSET_DEFAULT_SIZES);
	MemoryContextSwitchTo(cxt);

	/* the request, checked by run_sweep, read-only in the slot: our copy */
	req = palloc(sizeof(WpSweepRequest));
	memcpy(req, wp_job_sweep_request(), sizeof(WpSweepRequest));
	plan.req = req;
	/* the caller's equivalence margin: its auto rounds decide with it */
	SetConfigOption("walpressure.equivalence_margin", req->margin, PGC_USERSET, PGC_S_SESSION);
	plan.engine = req->engine == WP_ENGINE_PGBENCH ? &wp_pgbench_engine : &wp_backend_engine;
	plan.cap = &cap;
	plan.record = &record;
	plan.server_names = NIL;
	plan.server_originals = NIL;

	PG_TRY();
	{
		id = wp_results_sweep_insert(req);
		/* from here on, what the sweep takes is recorded before it takes it */
		record.sweep_id = id;
		record.dboid = MyDatabaseId;
		wp_record_write(&record);
		wp_cap_find_device(&cap);
		if (req->iops_cap > 0 || strcmp(req->setting, "iops_cap") == 0)
			wp_cap_begin(&cap, &record, req);
		wp_server_begin(req, &record, &hold);
		plan.server_names = hold.swept;
		plan.server_originals = hold.swept_originals;
		wp_threshold_measure(id, req, &cap);
		wp_job_started(id, req->search != WP_SEARCH_NONE ? wp_golden_first_steps(req) :
					   req->nvals * req->repeats);
		if (req->prewarm && req->workload != WP_WORKLOAD_CUSTOM)
			wp_prewarm_tables(req);
		status = req->search != WP_SEARCH_NONE ? wp_search_run(id, &plan, step_cxt) :
			wp_run_steps(id, &plan, step_cxt);
	}
	PG_CATCH();
	{
		EmitErrorReport();
		edata = wp_catch_error(cxt);
		status = "failed";
		error = edata->message;
		/* the interrupt of a cancel (or a shutdown) that cut a wait short */
		if (edata->sqlerrcode == ERRCODE_QUERY_CANCELED && wp_job_cancelled())
		{
			status = "cancelled";
			error = NULL;
			edata = NULL;
		}
	}
	PG_END_TRY();

	/* who cancelled, when it was not cancel_sweep or the caller */
	if (strcmp(status, "cancelled") == 0 && error == NULL)
		error = wp_job_cancel_why() == WP_CANCEL_CALLER_GONE ?
			"the connection of the session that waited for it was lost (its client closed it, or a network cut ended it)" :
			wp_terminated ? "the coordinator was terminated (server shutdown or pg_terminate_backend)" :
			wp_cancelled_by_signal ? "the coordinator was cancelled (pg_cancel_backend)" : NULL;

	need_recovery = wp_coordinator_put_back(&plan, &hold, id, status, error, cxt);
	wp_finished = true;
	if (edata == NULL && error != NULL)
	{
		ErrorData  *why = palloc0(sizeof(ErrorData));

		why->sqlerrcode = ERRCODE_QUERY_CANCELED;
		why->message = error;
		edata = why;
	}
	wp_job_finish(status, edata, id);
	/* what could not be put back or closed here, the restore worker does */
	if (need_recovery)
		wp_restore_wake();
	proc_exit(0);
}

/*-------------------------------------------------------------------------
 *
 * coordinator.c
 *		The coordinator: a dynamic background worker in the caller's
 *		database as the caller's role, started by run_sweep (job.c) with a
 *		checked request.  It records the sweep row, takes the disk cap and
 *		the server-wide settings, runs each step (value x repeat, repeats
 *		interleaved so drift is not an effect), records it, and at the end
 *		puts back everything it took.
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
#include "coordinator/rows.h"
#include "coordinator/step_rows.h"
#include "coordinator/sweep_row.h"
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
wp_prewarm(const WpSweepRequest *req)
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

/* What the waiting caller is told of a finished step. */
static char *
wp_step_message(int64 id, int step, int total, const WpSweepRequest *req, int pos,
				int repeat, const WpStepResult *r)
{
	return psprintf("sweep " INT64_FORMAT " step %d/%d: %s = %s%s: %.1f tps, %s%s%s%s",
					id, step, total, req->setting, req->vals[pos],
					req->repeats > 1 || req->auto_repeats ? psprintf(" (repeat %d)", repeat) : "",
					r->tps,
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
 * Run every step; returns the status, "done" or "cancelled".
 */
static const char *
wp_run_steps(int64 id, const WpStepPlan *plan, MemoryContext step_cxt)
{
	const WpSweepRequest *req = plan->req;
	int			rounds = req->repeats;	/* with auto_repeats, grows */
	int			total = req->nvals * rounds;
	int			max_samples = (int) ceil(req->duration_s) + 1;
	WpStepSample *samples = palloc(sizeof(WpStepSample) * max_samples);
	int			step = 0;
	int			done = 0;
	TimestampTz started = GetCurrentTimestamp();

	for (int repeat = 1; repeat <= rounds && !wp_job_cancelled(); repeat++)
	{
		for (int pos = 0; pos < req->nvals && !wp_job_cancelled(); pos++)
		{
			MemoryContext old = MemoryContextSwitchTo(step_cxt);
			WpLoadSpec *spec = palloc(sizeof(WpLoadSpec));
			WpStepResult r;
			int			nsamples;

			step++;
			pgstat_report_activity(STATE_RUNNING,
									psprintf("sweep " INT64_FORMAT " step %d/%d: %s = %s",
											 id, step, total, req->setting, req->vals[pos]));
			wp_load_spec(req, pos, wp_job_database(), wp_job_role(), spec);
			/* a right revoked during the sweep ends it here */
			StartTransactionCommand();
			wp_rights_recheck(req, step);
			CommitTransactionCommand();
			MemoryContextSwitchTo(step_cxt);
			if (!wp_step_run(plan, step, repeat, pos, spec, &r, samples, max_samples, &nsamples))
			{
				MemoryContextSwitchTo(old);
				break;
			}
			if (r.skipped)
			{
				/* its standby was not there: nothing measured, nothing recorded */
				wp_job_step_done(step, psprintf("sweep " INT64_FORMAT " step %d/%d: %s = %s: %s",
												id, step, total, req->setting, req->vals[pos],
												r.discarded));
				wp_step_standby_policy(req, step, &r);
				MemoryContextSwitchTo(old);
				MemoryContextReset(step_cxt);
				continue;
			}
			wp_job_phase(WP_PHASE_RECORDING, step, repeat, req->vals[pos]);
			wp_results_step_insert(id, req, step, pos, repeat, spec, &r, samples, nsamples);
			wp_job_step_done(step, wp_step_message(id, step, total, req, pos, repeat, &r));
			wp_step_standby_policy(req, step, &r);
			done++;
			MemoryContextSwitchTo(old);
			MemoryContextReset(step_cxt);
		}
		/* repeats => 'auto' or a budget: one more round, unless it is clear */
		if (req->auto_repeats && repeat == rounds && done == step && !wp_job_cancelled())
		{
			double		elapsed = (double) (GetCurrentTimestamp() - started) / USECS_PER_SEC;

			if (!wp_results_auto_decide(id, req, rounds, elapsed / rounds, elapsed))
			{
				rounds++;
				total = req->nvals * rounds;
				wp_job_set_total(total);
			}
		}
	}
	/* a cancel that came after the last step changes nothing */
	return wp_job_cancelled() && done < total ? "cancelled" : "done";
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
			wp_cap_begin(&cap, &record);
		wp_server_begin(req, &record, &hold);
		plan.server_names = hold.swept;
		plan.server_originals = hold.swept_originals;
		wp_job_started(id, req->nvals * req->repeats);
		if (req->prewarm && req->workload != WP_WORKLOAD_CUSTOM)
			wp_prewarm(req);
		status = wp_run_steps(id, &plan, step_cxt);
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
		error = wp_terminated ? "the coordinator was terminated (server shutdown or pg_terminate_backend)" :
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

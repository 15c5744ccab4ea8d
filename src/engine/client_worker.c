/*-------------------------------------------------------------------------
 *
 * client_worker.c
 *		Client workers: the load of a sweep step, run inside the server.
 *
 * A client is a dynamic background worker connected to the caller's
 * database as the caller's role.  It applies the step's settings to its own
 * session, then runs one transaction of the workload after another until
 * the coordinator raises the stop flag, timing each into its own slot of the
 * sweep block.  The built-in workloads are pgbench's scripts with the same
 * statements and the same uniform random values; they run as prepared SPI
 * plans, so a client costs what pgbench's backend costs minus the protocol.
 *
 * A client with no protocol is always ready to commit again, so more of
 * them queue behind each WAL flush than a real application's would.  The
 * round_trip_us setting puts the application back: the client waits about
 * that long before each statement it would send (BEGIN, each query,
 * COMMIT), as a client across a socket or a network does; each wait is drawn
 * uniformly between half and one and a half times it, since a network
 * jitters and identical clients in lockstep would not be realistic.
 * pgbench over a local socket on a busy machine behaves like a round trip of
 * about 100 us.
 *
 * Like pgbench, a client retries nothing but counts serialization failures
 * and deadlocks (the transaction is abandoned and the next one starts); any
 * other error stops the client and is reported by the coordinator as the
 * reason the sweep failed.  SIGTERM ends a client like a backend (die), even
 * inside a statement; leaving before the coordinator asked is an error too.
 *
 * IDENTIFICATION
 *	  src/engine/client_worker.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>
#include <sys/prctl.h>

#include "access/xact.h"
#include "catalog/pg_type.h"
#include "common/pg_prng.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "portability/instr_time.h"
#include "postmaster/bgworker.h"
#include "postmaster/interrupt.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/pmsignal.h"
#include "tcop/tcopprot.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "utils/timestamp.h"

#include "compat.h"
#include "engine/engine.h"
#include "sweep/workload.h"
#include "common/backends.h"
#include "common/text_cut.h"
#include "common/worker.h"

typedef struct WpClient
{
	WpClientSlot *slot;
	WpWorkload	workload;
	int			batch_size;
	int			round_trip_us;
	int			scale;
	pg_prng_state prng;
	SPIPlanPtr	update_account;
	SPIPlanPtr	select_account;
	SPIPlanPtr	update_teller;
	SPIPlanPtr	update_branch;
	SPIPlanPtr	insert_history;
	SPIPlanPtr	custom;
} WpClient;

/*
 * Apply the step's session settings, each one value the GUC machinery
 * parsed when run_sweep checked it, with the privileges of the role the
 * client runs as: a setting only superusers may set needs SET privilege on
 * it, as the role's own SET would.  In a transaction, as a SET is: that
 * privilege is read from pg_parameter_acl, which needs one (outside of one,
 * a role granted SET on commit_delay crashed the client worker).
 */
static void
wp_client_apply_settings(const WpLoadSpec *spec)
{
	GucContext	context = superuser() ? PGC_SUSET : PGC_USERSET;

	StartTransactionCommand();
	if (spec->search_path[0] != '\0')
		(void) set_config_option("search_path", spec->search_path, PGC_USERSET,
								 PGC_S_SESSION, GUC_ACTION_SET, true, ERROR, false);
	for (int i = 0; i < spec->nsettings; i++)
		(void) set_config_option(spec->settings[i].name, spec->settings[i].value, context,
								 PGC_S_SESSION, GUC_ACTION_SET, true, ERROR, false);
	CommitTransactionCommand();
}

static SPIPlanPtr
wp_prepare(const char *sql, int nargs, Oid *types)
{
	SPIPlanPtr	plan = SPI_prepare(sql, nargs, types);

	if (plan == NULL)
		elog(ERROR, "could not prepare \"%s\": %s", sql,
			 SPI_result_code_string(SPI_result));
	SPI_keepplan(plan);
	return plan;
}

/*
 * Prepare the workload's statements once, in a transaction of their own.
 */
static void
wp_client_prepare(WpClient *cl)
{
	Oid			delta_id[2] = {INT4OID, INT8OID};
	Oid			id[1] = {INT8OID};
	Oid			history[4] = {INT4OID, INT4OID, INT8OID, INT4OID};

	StartTransactionCommand();
	SPI_connect();
	PushActiveSnapshot(GetTransactionSnapshot());

	switch (cl->workload)
	{
		case WP_WORKLOAD_TPCB_LIKE:
			cl->update_teller = wp_prepare(wp_sql_update_teller, 2, delta_id);
			cl->update_branch = wp_prepare(wp_sql_update_branch, 2, delta_id);
			pg_fallthrough;
		case WP_WORKLOAD_SIMPLE_UPDATE:
			cl->update_account = wp_prepare(wp_sql_update_account, 2, delta_id);
			cl->select_account = wp_prepare(wp_sql_select_account, 1, id);
			pg_fallthrough;
		case WP_WORKLOAD_INSERT_ONLY:
		case WP_WORKLOAD_BATCH_INSERT:
			cl->insert_history = wp_prepare(wp_sql_insert_history, 4, history);
			break;
		case WP_WORKLOAD_SELECT_ONLY:
			cl->select_account = wp_prepare(wp_sql_select_account, 1, id);
			break;
		case WP_WORKLOAD_CUSTOM:
			cl->custom = wp_prepare(wp_clients->spec.sql, 0, NULL);
			break;
	}

	SPI_finish();
	PopActiveSnapshot();
	CommitTransactionCommand();
}

/*
 * The emulated round trip of one statement.  pg_usleep returns early on a
 * signal, and a SIGTERM is acted on at once.
 */
static inline void
wp_round_trip(WpClient *cl)
{
	if (cl->round_trip_us > 0)
	{
		pg_usleep((long) (cl->round_trip_us * (0.5 + pg_prng_double(&cl->prng))));
		CHECK_FOR_INTERRUPTS();
	}
}

static void
wp_exec(WpClient *cl, SPIPlanPtr plan, Datum *values)
{
	int			rc;

	wp_round_trip(cl);
	rc = SPI_execute_plan(plan, values, NULL, false, 0);

	if (rc < 0)
		elog(ERROR, "SPI_execute_plan failed: %s", SPI_result_code_string(rc));
}

/* A uniform random integer in [min, max], as pgbench's random(). */
static inline int64
wp_random(WpClient *cl, int64 min, int64 max)
{
	return min + (int64) pg_prng_uint64_range(&cl->prng, 0, (uint64) (max - min));
}

/*
 * One transaction of the workload.
 */
static void
wp_client_transaction(WpClient *cl)
{
	int64		aid = wp_random(cl, 1, (int64) WP_NACCOUNTS * cl->scale);
	int32		bid = (int32) wp_random(cl, 1, cl->scale);
	int32		tid = (int32) wp_random(cl, 1, (int64) WP_NTELLERS * cl->scale);
	int32		delta = (int32) wp_random(cl, -5000, 5000);
	Datum		history[4] = {Int32GetDatum(tid), Int32GetDatum(bid),
	Int64GetDatum(aid), Int32GetDatum(delta)};

	wp_round_trip(cl);			/* BEGIN */
	StartTransactionCommand();
	SPI_connect();
	PushActiveSnapshot(GetTransactionSnapshot());

	switch (cl->workload)
	{
		case WP_WORKLOAD_SIMPLE_UPDATE:
		case WP_WORKLOAD_TPCB_LIKE:
			wp_exec(cl, cl->update_account,
					(Datum[]) {Int32GetDatum(delta), Int64GetDatum(aid)});
			wp_exec(cl, cl->select_account, (Datum[]) {Int64GetDatum(aid)});
			if (cl->workload == WP_WORKLOAD_TPCB_LIKE)
			{
				wp_exec(cl, cl->update_teller,
						(Datum[]) {Int32GetDatum(delta), Int64GetDatum(tid)});
				wp_exec(cl, cl->update_branch,
						(Datum[]) {Int32GetDatum(delta), Int64GetDatum(bid)});
			}
			wp_exec(cl, cl->insert_history, history);
			break;
		case WP_WORKLOAD_INSERT_ONLY:
			wp_exec(cl, cl->insert_history, history);
			break;
		case WP_WORKLOAD_SELECT_ONLY:
			wp_exec(cl, cl->select_account, (Datum[]) {Int64GetDatum(aid)});
			break;
		case WP_WORKLOAD_BATCH_INSERT:
			for (int i = 0; i < cl->batch_size; i++)
			{
				if (i > 0)
				{
					history[2] = Int64GetDatum(wp_random(cl, 1, (int64) WP_NACCOUNTS * cl->scale));
					history[3] = Int32GetDatum((int32) wp_random(cl, -5000, 5000));
				}
				wp_exec(cl, cl->insert_history, history);
			}
			break;
		case WP_WORKLOAD_CUSTOM:
			wp_exec(cl, cl->custom, NULL);
			break;
	}

	SPI_finish();
	PopActiveSnapshot();
	wp_round_trip(cl);			/* COMMIT */
	CommitTransactionCommand();
}

/*
 * Record why this client stopped early, for the coordinator to report.
 */
static void
wp_client_fail(WpClient *cl, const ErrorData *edata)
{
	wp_copy_text(cl->slot->error, edata->message ? edata->message : "", sizeof(cl->slot->error));
	cl->slot->sqlerrcode = edata->sqlerrcode;
	pg_write_barrier();
	pg_atomic_write_u32(&cl->slot->failed, 1);
}

/*
 * On any exit: say the client is done, and why if nobody asked it to stop
 * (terminated, or a FATAL error).
 */
static void
wp_client_exit(int code, Datum arg)
{
	WpClientSlot *slot = (WpClientSlot *) DatumGetPointer(arg);

	if (pg_atomic_read_u32(&wp_clients->stop) == 0 && pg_atomic_read_u32(&slot->failed) == 0)
	{
		strlcpy(slot->error, "the client worker was terminated before the step ended",
				sizeof(slot->error));
		pg_write_barrier();
		pg_atomic_write_u32(&slot->failed, 1);
	}
	pg_write_barrier();
	pg_atomic_write_u32(&slot->done, 1);
}

/*
 * Entry point of a client worker; main_arg is its slot number.
 */
void
wp_client_main(Datum main_arg)
{
	WpClient	cl;
	const WpLoadSpec *spec = &wp_clients->spec;
	MemoryContext client_context;
	bool		failed = false;

	memset(&cl, 0, sizeof(cl));
	cl.slot = &wp_clients->slot[DatumGetInt32(main_arg)];

	pqsignal(SIGHUP, SignalHandlerForConfigReload);
	pqsignal(SIGTERM, die);
	BackgroundWorkerUnblockSignals();
	before_shmem_exit(wp_client_exit, PointerGetDatum(cl.slot));
	BackgroundWorkerInitializeConnectionByOid(spec->dboid, spec->roleoid, 0);
	pgstat_report_appname(WP_LOAD_APPNAME_CLIENT);

	client_context = AllocSetContextCreate(TopMemoryContext, "walpressure client",
										   ALLOCSET_DEFAULT_SIZES);
	MemoryContextSwitchTo(client_context);

	cl.workload = spec->workload;
	cl.batch_size = Max(spec->batch_size, 1);
	cl.round_trip_us = Max(spec->round_trip_us, 0);
	/* sleep what was asked: the default timer slack adds 50 us to each */
	if (cl.round_trip_us > 0)
		(void) prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	cl.scale = Max(spec->scale, 1);
	pg_prng_seed(&cl.prng, ((uint64) MyProcPid << 32) ^ (uint64) GetCurrentTimestamp());

	PG_TRY();
	{
		/*
		 * fsync latency per commit needs WAL I/O timing, a setting only
		 * superusers (and roles granted SET on it) may set: on when the
		 * role could set it itself, as the pgbench engine does, since the
		 * role's own statements run here
		 */
		StartTransactionCommand();
		(void) set_config_option("track_wal_io_timing", "on",
								 superuser() ? PGC_SUSET : PGC_USERSET, PGC_S_SESSION,
								 GUC_ACTION_SET, true, DEBUG1, false);
		/* the probe tells this step's leaders, on 18 too (commit_probe.c) */
		(void) set_config_option("walpressure.exact_leaders", "on", PGC_USERSET, PGC_S_SESSION,
								 GUC_ACTION_SET, true, ERROR, false);
		CommitTransactionCommand();
		wp_client_apply_settings(spec);
		wp_client_prepare(&cl);
	}
	PG_CATCH();
	{
		ErrorData  *edata = wp_catch_error(client_context);

		wp_client_fail(&cl, edata);
		failed = true;
	}
	PG_END_TRY();

	pgstat_report_activity(STATE_RUNNING, "walpressure client workload");

	while (!failed && pg_atomic_read_u32(&wp_clients->stop) == 0)
	{
		uint32		gen = pg_atomic_read_u32(&wp_clients->flush_gen);
		instr_time	start;
		instr_time	elapsed;

		CHECK_FOR_INTERRUPTS();
		/* a client never waits on its latch: watch for the postmaster here */
		if (!PostmasterIsAlive())
			proc_exit(1);
		if (ConfigReloadPending)
		{
			ConfigReloadPending = false;
			ProcessConfigFile(PGC_SIGHUP);
		}

		/* the coordinator wants pg_stat_wal exact at the window's edge */
		if (gen != pg_atomic_read_u32(&cl.slot->flushed_gen))
		{
			pgstat_report_stat(true);
			pg_atomic_write_u32(&cl.slot->flushed_gen, gen);
		}

		INSTR_TIME_SET_CURRENT(start);
		PG_TRY();
		{
			double		ms;

			wp_client_transaction(&cl);
			INSTR_TIME_SET_CURRENT(elapsed);
			INSTR_TIME_SUBTRACT(elapsed, start);
			ms = INSTR_TIME_GET_DOUBLE(elapsed) * 1000.0;

			wp_hist_add_owned(&cl.slot->hist, INSTR_TIME_GET_MICROSEC(elapsed));
			cl.slot->latency_ms += ms;
			cl.slot->latency_sq_ms += ms * ms;
			/* last: the coordinator reads the count first */
			pg_write_barrier();
			wp_owned_add(&cl.slot->txns, 1);
		}
		PG_CATCH();
		{
			ErrorData  *edata = wp_catch_error(client_context);

			if (edata->sqlerrcode == ERRCODE_T_R_SERIALIZATION_FAILURE ||
				edata->sqlerrcode == ERRCODE_T_R_DEADLOCK_DETECTED)
				wp_owned_add(&cl.slot->retries, 1);
			else
			{
				wp_client_fail(&cl, edata);
				failed = true;
			}
			FreeErrorData(edata);
		}
		PG_END_TRY();

		/* at most once a second, like an idle backend */
		pgstat_report_stat(false);
	}

	pgstat_report_stat(true);
	proc_exit(0);
}

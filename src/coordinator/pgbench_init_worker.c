/*-------------------------------------------------------------------------
 *
 * pgbench_init_worker.c
 *		The worker behind walpressure.init_pgbench(scale): pgbench's tables,
 *		built in the server exactly as `pgbench -i -I dtGvp -s scale` does.
 *
 * The statements are pgbench's own (src/bin/pgbench/pgbench.c: drop
 * tables, create tables, server-side generate, vacuum, primary keys), run
 * in the same transactions.  It is a worker rather than a function because
 * VACUUM cannot run inside a function call; the worker calls it as a
 * top-level command, like a client's VACUUM statement.
 *
 * IDENTIFICATION
 *	  src/coordinator/pgbench_init_worker.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "commands/vacuum.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "parser/parse_node.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "tcop/tcopprot.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "utils/timeout.h"
#include "utils/timestamp.h"

#include "coordinator/pgbench_init_worker.h"
#include "sweep/workload.h"
#include "job/slot.h"
#include "live/shmem.h"
#include "common/worker.h"

/* pgbench's: from this scale on, aid is a bigint */
#define SCALE_32BIT_THRESHOLD 20000

static const char *const wp_tables[] = {
	"pgbench_branches", "pgbench_tellers", "pgbench_accounts", "pgbench_history"
};

/* How often a running statement looks at the job's cancel flag. */
#define WP_INIT_POLL_MS		200

/* Between steps: stop if run_sweep's launcher was cancelled. */
static void
wp_init_check_cancel(void)
{
	CHECK_FOR_INTERRUPTS();
	if (wp_job_cancelled())
		ereport(ERROR,
				(errcode(ERRCODE_QUERY_CANCELED),
				 errmsg("init_pgbench was cancelled")));
}

/*
 * Within a step (one INSERT of a large scale runs for minutes): a timeout
 * handler turns the job's cancel flag into a query cancel, seen at the
 * statement's next CHECK_FOR_INTERRUPTS, as StatementTimeoutHandler does.
 */
static void
wp_init_cancel_poll(void)
{
	if (wp_job_cancelled())
	{
		QueryCancelPending = true;
		InterruptPending = true;
		SetLatch(MyLatch);
	}
}

static void
wp_init_step(int step, const char *what)
{
	wp_job_step_done(step, psprintf("init_pgbench: %s", what));
	wp_init_check_cancel();
}

/* Run statements, each as its own top-level transaction, or all as one. */
static void
wp_init_exec(const char *const *sql, int n, bool one_transaction)
{
	for (int i = 0; i < n; i++)
	{
		if (i == 0 || !one_transaction)
		{
			SetCurrentStatementStartTimestamp();
			StartTransactionCommand();
			SPI_connect();
			PushActiveSnapshot(GetTransactionSnapshot());
		}
		pgstat_report_activity(STATE_RUNNING, sql[i]);
		if (SPI_execute(sql[i], false, 0) < 0)
			elog(ERROR, "could not run \"%s\"", sql[i]);
		if (i == n - 1 || !one_transaction)
		{
			SPI_finish();
			PopActiveSnapshot();
			CommitTransactionCommand();
		}
	}
}

/* VACUUM ANALYZE of one table, as a top-level command. */
static void
wp_init_vacuum(const char *table)
{
	VacuumStmt *vac = makeNode(VacuumStmt);

	vac->options = list_make1(makeDefElem("analyze", NULL, -1));
	vac->rels = list_make1(makeVacuumRelation(makeRangeVar(NULL, (char *) table, -1),
											  InvalidOid, NIL));
	vac->is_vacuumcmd = true;

	pgstat_report_activity(STATE_RUNNING, psprintf("vacuum analyze %s", table));
	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	ExecVacuum(make_parsestate(NULL), vac, true);
	CommitTransactionCommand();
}

static bool wp_finished = false;

/* Free the block if this worker leaves by a FATAL error or a signal. */
static void
wp_init_exit(int code, Datum arg)
{
	if (!wp_finished)
	{
		ErrorData	edata = {0};

		edata.sqlerrcode = ERRCODE_INTERNAL_ERROR;
		edata.message = "the init_pgbench worker exited unexpectedly (see the server log)";
		wp_job_finish("failed", &edata, 0);
	}
}

/*
 * Entry point of the init_pgbench worker.  The request is the scale and
 * the search_path wp_init_schema made (the schema of the tables, then
 * pg_catalog).
 */
void
wp_init_pgbench_main(Datum main_arg)
{
	int			scale;
	bool		big;
	const char *volatile status = "done";
	ErrorData  *volatile error = NULL;
	const WpInitRequest *req = wp_job_init_request();

	pqsignal(SIGTERM, die);
	BackgroundWorkerUnblockSignals();
	before_shmem_exit(wp_init_exit, 0);
	BackgroundWorkerInitializeConnectionByOid(wp_job_database(), wp_job_role(), 0);
	pgstat_report_appname("walpressure init_pgbench");
	scale = req->scale;
	(void) set_config_option("search_path", req->search_path, PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SET, true, ERROR, false);
	big = scale >= SCALE_32BIT_THRESHOLD;
	wp_job_started(0, 5);
	enable_timeout_every(RegisterTimeout(USER_TIMEOUT, wp_init_cancel_poll),
						 TimestampTzPlusMilliseconds(GetCurrentTimestamp(), WP_INIT_POLL_MS),
						 WP_INIT_POLL_MS);

	PG_TRY();
	{
		const char *drop[] = {
			"drop table if exists pgbench_accounts, pgbench_branches, "
			"pgbench_history, pgbench_tellers"
		};
		const char *create[] = {
			psprintf("create table pgbench_history(%s)",
					 big ? "tid int,bid int,aid bigint,delta int,mtime timestamp,filler char(22)"
					 : "tid int,bid int,aid    int,delta int,mtime timestamp,filler char(22)"),
			"create table pgbench_tellers(tid int not null,bid int,tbalance int,filler char(84)) "
			"with (fillfactor=100)",
			psprintf("create table pgbench_accounts(%s) with (fillfactor=100)",
					 big ? "aid bigint not null,bid int,abalance int,filler char(84)"
					 : "aid    int not null,bid int,abalance int,filler char(84)"),
			"create table pgbench_branches(bid int not null,bbalance int,filler char(88)) "
			"with (fillfactor=100)"
		};
		const char *generate[] = {
			"truncate table pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers",
			psprintf("insert into pgbench_branches(bid,bbalance) select bid, 0 "
					 "from pg_catalog.generate_series(1, %d) as bid", WP_NBRANCHES * scale),
			psprintf("insert into pgbench_tellers(tid,bid,tbalance) "
					 "select tid, (tid OPERATOR(pg_catalog.-) 1) OPERATOR(pg_catalog./) %d OPERATOR(pg_catalog.+) 1, 0 "
					 "from pg_catalog.generate_series(1, %d) as tid", WP_NTELLERS, WP_NTELLERS * scale),
			psprintf("insert into pgbench_accounts(aid,bid,abalance,filler) "
					 "select aid, (aid OPERATOR(pg_catalog.-) 1) OPERATOR(pg_catalog./) %d OPERATOR(pg_catalog.+) 1, 0, '' "
					 "from pg_catalog.generate_series(1, " INT64_FORMAT ") as aid",
					 WP_NACCOUNTS, (int64) WP_NACCOUNTS * scale)
		};
		const char *keys[] = {
			"alter table pgbench_branches add primary key (bid)",
			"alter table pgbench_tellers add primary key (tid)",
			"alter table pgbench_accounts add primary key (aid)"
		};

		wp_init_exec(drop, lengthof(drop), false);
		wp_init_step(1, "dropped old tables");
		wp_init_exec(create, lengthof(create), false);
		wp_init_step(2, "created tables");
		wp_init_exec(generate, lengthof(generate), true);
		wp_init_step(3, psprintf("generated " INT64_FORMAT " accounts (scale %d)",
								 (int64) WP_NACCOUNTS * scale, scale));
		for (int i = 0; i < lengthof(wp_tables); i++)
			wp_init_vacuum(wp_tables[i]);
		wp_init_step(4, "vacuumed");
		wp_init_exec(keys, lengthof(keys), false);
		wp_init_step(5, "created primary keys");
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		EmitErrorReport();
		edata = wp_catch_error(TopMemoryContext);
		status = "failed";
		if (edata->sqlerrcode == ERRCODE_QUERY_CANCELED && wp_job_cancelled())
			edata->message = "init_pgbench was cancelled";
		error = edata;
	}
	PG_END_TRY();

	wp_finished = true;
	wp_job_finish(status, error, 0);
	proc_exit(0);
}

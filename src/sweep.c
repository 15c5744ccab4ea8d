/*-------------------------------------------------------------------------
 *
 * sweep.c
 *		The coordinator: runs a sweep's steps and records each one, and the
 *		recovery worker that closes a sweep a crash interrupted.
 *
 * run_sweep (launch.c) validates the arguments, claims the sweep block and
 * starts the coordinator with the arguments as jsonb text.  The coordinator,
 * a dynamic background worker in the caller's database as the caller's role,
 * records the sweep row itself (the caller's transaction is still open),
 * then for each step (value x repeat, repeats interleaved):
 *
 *	CHECKPOINT -> start the clients with the step's settings -> warm-up ->
 *	clients flush their statistics -> measured window, one sample a second
 *	-> stop the clients and wait for them to exit -> read the WAL and
 *	checkpoint deltas -> insert the step row and its samples (own txn)
 *
 * so a step's row is committed when the step ends and a cancel or a crash
 * loses at most the step in flight.  Bookkeeping rows are written as the
 * extension's owner; the load itself runs as the caller.
 *
 * While a sweep runs, a small state file in the data directory names it.
 * It is removed when the sweep ends; if the server crashed instead, the
 * sampler finds it at the next start and starts the recovery worker, which
 * marks the sweep aborted.
 *
 * IDENTIFICATION
 *	  src/sweep.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>
#include <unistd.h>

#include "access/xact.h"
#include "catalog/pg_authid.h"
#include "catalog/pg_extension.h"
#include "catalog/pg_type.h"
#include "commands/extension.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "postmaster/bgwriter.h"
#include "postmaster/interrupt.h"
#include "storage/fd.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/proc.h"
#include "tcop/tcopprot.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/pg_lsn.h"
#include "utils/snapmgr.h"
#include "utils/timestamp.h"

#include "walpressure.h"
#include "compat.h"

#define WP_STATE_FILE		"walpressure.sweep"
#define WP_STATE_FILE_TMP	"walpressure.sweep.tmp"

/* How long clients may take to flush their statistics or to stop. */
#define WP_CLIENT_WAIT_MS	10000

/* The sweep as the coordinator runs it, from its row in walpressure.sweeps. */
typedef struct WpPlan
{
	int64		id;
	char	   *setting;
	bool		setting_is_guc;
	bool		setting_is_server;	/* applied server-wide */
	int			nvals;
	char	  **vals;
	int			repeats;
	int			clients;
	int			batch_size;
	int			round_trip_us;
	double		duration_s;
	double		warmup_s;
	WpWorkload	workload;
	bool		prewarm;
	int			scale;
	char	   *fixed_settings; /* name=value lines, set in each client */
	List	   *fixed_server_names; /* fixed server-wide settings */
	List	   *fixed_server_values;
	bool		accept_data_loss;
	/* server-wide settings while the sweep holds them */
	List	   *server_names;	/* every one it changes */
	char	   *originals;		/* their values before, name=value lines */
	bool		server_active;
	const char *server_restored;	/* how they were put back */
	char	   *sql;
	char	   *search_path;	/* the caller's, for the load */
	int			iops_cap;		/* write IOPS cap of every step, 0: none */
	/* the cap while the sweep holds it */
	bool		cap_active;
	WpCgroupMode cap_mode;
	int64		prev_write_iops;	/* the limits before the sweep, to restore */
	int64		prev_read_iops;
	/* the disk of pg_wal, for device IOPS */
	bool		have_dev;
	WpDevice	dev;
} WpPlan;

/* The load of one step: the plan's, or the swept pseudo-parameter's value. */
typedef struct WpLoad
{
	int			clients;
	int			batch_size;
	int			round_trip_us;
} WpLoad;

/* What one step measured. */
typedef struct WpStepResult
{
	TimestampTz started_at;
	double		seconds;		/* measured window */
	uint64		transactions;
	uint64		retries;
	double		tps;
	double		latency_avg_ms;
	double		latency_stddev_ms;
	double		latency_p50_ms;
	double		latency_p95_ms;
	double		latency_p99_ms;
	int64		commits;
	int64		leaders;
	int64		wal_fsyncs;
	double		span_s;			/* window start to clients' exit */
	double		fsync_avg_ms;	/* < 0: none timed */
	double		fsync_p50_ms;
	double		fsync_p99_ms;
	int64		wal_bytes;
	int64		wal_records;
	int64		wal_fpi;
	int64		wal_buffers_full;
	int64		ckpt_timed;
	int64		ckpt_requested;
	double		ckpt_write_ms;
	double		ckpt_sync_ms;
	char	   *data_loss;		/* labels of the step's settings, NULL: none */
	int64		iops_cap;		/* the step's write cap, 0: none */
	double		read_iops;		/* < 0: not measured */
	double		write_iops;
	XLogRecPtr	lsn_start;		/* WAL insert position at the window's start */
	XLogRecPtr	lsn_end;		/* and after the clients exit */
} WpStepResult;

/* One second of a step's measured window. */
typedef struct WpStepSample
{
	double		tps;
	double		latency_p50_ms;
	double		latency_p99_ms;
	int64		commits;
	int64		wal_fsyncs;
	int64		wal_bytes;
} WpStepSample;

static volatile sig_atomic_t wp_terminated = false;
static BackgroundWorkerHandle **wp_client_handles = NULL;
static int	wp_nclients_running = 0;

/*
 * SIGTERM: the server is shutting down, or someone terminated us; end the
 * sweep as cancelled.
 */
static void
wp_coordinator_sigterm(SIGNAL_ARGS)
{
	int			save_errno = errno;

	wp_terminated = true;
	pg_atomic_write_u32(&wp_sweep->cancel, 1);
	SetLatch(MyLatch);
	errno = save_errno;
}

static bool
wp_cancelled(void)
{
	return pg_atomic_read_u32(&wp_sweep->cancel) != 0;
}

/* ---------- the state file ---------- */

/*
 * Record durably that sweep `id` runs in database `dboid`, and, when it
 * holds the IOPS cap, the limits to put back.
 */
static void
wp_state_file_write(int64 id, Oid dboid, const WpPlan *plan)
{
	FILE	   *f = AllocateFile(WP_STATE_FILE_TMP, PG_BINARY_W);

	if (f == NULL)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not create file \"%s\": %m", WP_STATE_FILE_TMP)));
	fprintf(f, INT64_FORMAT " %u\n", id, dboid);
	if (plan != NULL && plan->cap_active)
		fprintf(f, "cap %u:%u " INT64_FORMAT " " INT64_FORMAT "\n",
				plan->dev.major, plan->dev.minor, plan->prev_write_iops, plan->prev_read_iops);
	if (FreeFile(f) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not write file \"%s\": %m", WP_STATE_FILE_TMP)));
	(void) durable_rename(WP_STATE_FILE_TMP, WP_STATE_FILE, ERROR);
}

/*
 * The cap line of the state file: false when the sweep held no cap.
 */
static bool
wp_state_file_cap(WpDevice *dev, int64 *prev_write, int64 *prev_read)
{
	FILE	   *f = AllocateFile(WP_STATE_FILE, PG_BINARY_R);
	char		line[256];
	bool		found = false;

	if (f == NULL)
		return false;
	while (!found && fgets(line, sizeof(line), f))
	{
		long long	w;
		long long	r;

		if (sscanf(line, "cap %u:%u %lld %lld", &dev->major, &dev->minor, &w, &r) == 4)
		{
			*prev_write = w;
			*prev_read = r;
			found = true;
		}
	}
	FreeFile(f);
	return found;
}

/*
 * Read the state file: false when there is none (or it is unreadable).
 */
static bool
wp_state_file_read(int64 *id, Oid *dboid)
{
	FILE	   *f = AllocateFile(WP_STATE_FILE, PG_BINARY_R);
	bool		ok;

	if (f == NULL)
		return false;
	ok = fscanf(f, INT64_FORMAT " %u", id, dboid) == 2;
	FreeFile(f);
	return ok;
}

static void
wp_state_file_remove(void)
{
	(void) durable_unlink(WP_STATE_FILE, LOG);
}

/*
 * Is a sweep the server stopped during still to be closed?  Its id if so.
 */
bool
wp_sweep_recovery_pending(int64 *id)
{
	Oid			dboid;

	return wp_state_file_read(id, &dboid);
}

/*
 * The worker serving a launch is done: record its outcome for the
 * launcher and free the block for the next launch.
 */
void
wp_worker_finish(const char *status, const char *message, int64 sweep_id)
{
	LWLockAcquire(wp_sweep_lock, LW_EXCLUSIVE);
	strlcpy(wp_sweep->status, status, WP_STATUS_LEN);
	strlcpy(wp_sweep->message, message ? message : "", WP_MESSAGE_MAX);
	wp_sweep->sweep_id = sweep_id;
	wp_sweep->finished_seq = wp_sweep->launch_seq;
	wp_sweep->state = WP_SWEEP_FINISHED;
	LWLockRelease(wp_sweep_lock);
	wp_wake_launcher();
}

/*
 * If a sweep's state file survived while no sweep runs, the server stopped
 * (or the coordinator died) during that sweep: start the recovery worker.
 * Called at sampler start and by a coordinator leaving unexpectedly.
 */
void
wp_sweep_state_file_check(void)
{
	int64		id;
	Oid			dboid;
	BackgroundWorker worker;
	bool		idle;

	if (!wp_state_file_read(&id, &dboid))
		return;

	LWLockAcquire(wp_sweep_lock, LW_SHARED);
	idle = wp_sweep->state != WP_SWEEP_STARTING && wp_sweep->state != WP_SWEEP_RUNNING;
	LWLockRelease(wp_sweep_lock);
	if (!idle)
		return;

	wp_dynamic_worker(&worker, "wp_recovery_main", "walpressure recovery");
	worker.bgw_main_arg = ObjectIdGetDatum(dboid);
	worker.bgw_notify_pid = 0;	/* nobody waits for it */
	if (!RegisterDynamicBackgroundWorker(&worker, NULL))
		ereport(LOG,
				(errmsg("walpressure could not start the worker that closes sweep " INT64_FORMAT,
						id),
				 errhint("Free a background worker slot (max_worker_processes) and restart.")));
}

/*
 * The recovery worker: mark the interrupted sweep aborted, then forget it.
 */
void
wp_recovery_main(Datum main_arg)
{
	int64		id;
	Oid			dboid;

	pqsignal(SIGTERM, die);
	BackgroundWorkerUnblockSignals();
	BackgroundWorkerInitializeConnectionByOid(DatumGetObjectId(main_arg),
											  BOOTSTRAP_SUPERUSERID, 0);
	pgstat_report_appname("walpressure recovery");
	/* a superuser session: nothing the database's settings name may run */
	SetConfigOption("search_path", "pg_catalog, pg_temp", PGC_SUSET, PGC_S_OVERRIDE);

	if (!wp_state_file_read(&id, &dboid))
		proc_exit(0);

	StartTransactionCommand();
	SPI_connect();
	PushActiveSnapshot(GetTransactionSnapshot());
	if (OidIsValid(get_extension_oid("walpressure", true)))
	{
		int			rc = SPI_execute_with_args(
											   "UPDATE walpressure.sweeps SET status = 'aborted', "
											   "finished_at = pg_catalog.now(), "
											   "error = 'interrupted: the server stopped or the coordinator exited (see the server log)' "
											   "WHERE sweep_id = $1 AND status = 'running'",
											   1, (Oid[]) {INT8OID},
											   (Datum[]) {Int64GetDatum(id)},
											   NULL, false, 0);

		if (rc != SPI_OK_UPDATE)
			elog(ERROR, "could not mark sweep " INT64_FORMAT " aborted", id);
		if (SPI_processed > 0)
			ereport(LOG,
					(errmsg("walpressure: sweep " INT64_FORMAT " was interrupted and is marked aborted",
							id)));
	}
	SPI_finish();
	PopActiveSnapshot();
	CommitTransactionCommand();

	/* nor the server settings (the postmaster restored them if it restarted) */
	PG_TRY();
	{
		const char *how = wp_server_settings_end(id, true, NULL);

		if (how != NULL)
			ereport(LOG,
					(errmsg("walpressure: the server settings of interrupted sweep " INT64_FORMAT " are %s",
							id, how)));
	}
	PG_CATCH();
	{
		EmitErrorReport();
		FlushErrorState();
	}
	PG_END_TRY();

	/* the cap the sweep set must not outlive it */
	{
		WpDevice	dev;
		int64		w;
		int64		r;

		if (wp_state_file_cap(&dev, &w, &r))
		{
			wp_cgroup_set_limits(wp_cgroup_check(), dev, w, r);
			ereport(LOG,
					(errmsg("walpressure: the IOPS cap of interrupted sweep " INT64_FORMAT " is removed from %u:%u",
							id, dev.major, dev.minor)));
		}
	}
	wp_state_file_remove();
	proc_exit(0);
}

/* ---------- bookkeeping as the extension owner ---------- */

static Oid	wp_owner = InvalidOid;
static Oid	wp_saved_user;
static int	wp_saved_sec;
static int	wp_saved_nestlevel;

/*
 * Run the following SPI work as the extension's owner, so a caller who was
 * granted run_sweep needs no rights on the result tables.  As with any code
 * run on behalf of a less privileged role, the caller's search_path must not
 * reach it: it runs with search_path = pg_catalog, pg_temp, as a restricted
 * operation.  Ends with wp_as_owner_end() in the same transaction.
 */
static void
wp_as_owner_begin(void)
{
	GetUserIdAndSecContext(&wp_saved_user, &wp_saved_sec);
	wp_saved_nestlevel = NewGUCNestLevel();
	(void) set_config_option("search_path", "pg_catalog, pg_temp", PGC_USERSET,
							 PGC_S_SESSION, GUC_ACTION_SAVE, true, 0, false);
	if (!OidIsValid(wp_owner))
	{
		int			rc = SPI_execute("SELECT extowner FROM pg_catalog.pg_extension "
									 "WHERE extname = 'walpressure'", true, 1);
		bool		isnull;

		if (rc != SPI_OK_SELECT || SPI_processed != 1)
			elog(ERROR, "extension walpressure is not installed in this database");
		wp_owner = DatumGetObjectId(SPI_getbinval(SPI_tuptable->vals[0],
												  SPI_tuptable->tupdesc, 1, &isnull));
	}
	SetUserIdAndSecContext(wp_owner, wp_saved_sec | SECURITY_LOCAL_USERID_CHANGE |
						   SECURITY_RESTRICTED_OPERATION);
}

static void
wp_as_owner_end(void)
{
	SetUserIdAndSecContext(wp_saved_user, wp_saved_sec);
	AtEOXact_GUC(false, wp_saved_nestlevel);
}

static void
wp_xact_begin(void)
{
	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	SPI_connect();
	PushActiveSnapshot(GetTransactionSnapshot());
}

static void
wp_xact_end(void)
{
	SPI_finish();
	PopActiveSnapshot();
	CommitTransactionCommand();
}

/* Text of column `col` of the first row of SPI's result, NULL if null. */
static char *
wp_spi_text(int col)
{
	return SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, col);
}

static WpWorkload
wp_workload_from_name(const char *name)
{
	if (strcmp(name, "simple-update") == 0)
		return WP_WORKLOAD_SIMPLE_UPDATE;
	if (strcmp(name, "tpcb-like") == 0)
		return WP_WORKLOAD_TPCB_LIKE;
	if (strcmp(name, "insert-only") == 0)
		return WP_WORKLOAD_INSERT_ONLY;
	if (strcmp(name, "batch-insert") == 0)
		return WP_WORKLOAD_BATCH_INSERT;
	if (strcmp(name, "custom") == 0)
		return WP_WORKLOAD_CUSTOM;
	elog(ERROR, "unknown workload \"%s\"", name);
	return WP_WORKLOAD_CUSTOM;	/* keep compiler quiet */
}

/*
 * Split the fixed settings' "name=value" lines: the server-wide ones go to
 * the plan's lists, the session ones are returned for the clients.
 */
static char *
wp_split_fixed(WpPlan *plan, const char *lines)
{
	StringInfoData session;
	List	   *values;
	List	   *names = wp_setting_lines(lines, &values);
	ListCell   *n,
			   *v;

	initStringInfo(&session);
	forboth(n, names, v, values)
	{
		if (wp_is_server_setting(lfirst(n)))
		{
			plan->fixed_server_names = lappend(plan->fixed_server_names, lfirst(n));
			plan->fixed_server_values = lappend(plan->fixed_server_values, lfirst(v));
		}
		else
			appendStringInfo(&session, "%s%s=%s", session.len > 0 ? "\n" : "",
							 (char *) lfirst(n), (char *) lfirst(v));
	}
	return session.data;
}

/*
 * Record the sweep row from the request and read back the plan.
 */
static void
wp_sweep_record(WpPlan *plan)
{
	MemoryContext cxt = CurrentMemoryContext;
	int			rc;
	char	   *vals;
	char	   *run_by;

	wp_xact_begin();
	run_by = GetUserNameFromId(GetUserId(), false);
	wp_as_owner_begin();
	rc = SPI_execute_with_args(
							   "INSERT INTO walpressure.sweeps (label, setting, vals, clients, duration, "
							   "  workload, iops_cap, warmup, repeats, settings, prewarm, scale, run_by, "
							   "  database, steps_total, server_settings, walpressure_version, accept_data_loss) "
							   "SELECT r->>'label', r->>'setting', "
							   "  ARRAY(SELECT jsonb_array_elements_text(r->'vals')), "
							   "  (r->>'clients')::int, (r->>'duration_s')::float8 * interval '1 s', r->>'workload', "
							   "  (r->>'iops_cap')::int, (r->>'warmup_s')::float8 * interval '1 s', (r->>'repeats')::int, "
							   "  r->'settings', (r->>'prewarm')::bool, (r->>'scale')::int, "
							   "  $2, pg_catalog.current_database(), "
							   "  jsonb_array_length(r->'vals') * (r->>'repeats')::int, "
							   "  (SELECT jsonb_object_agg(name, setting) FROM pg_catalog.pg_settings "
							   "   WHERE name IN ('commit_delay', 'commit_siblings', 'synchronous_commit', "
							   "     'fsync', 'full_page_writes', 'wal_sync_method', 'wal_writer_delay', "
							   "     'wal_writer_flush_after', 'wal_buffers', 'wal_compression', "
							   "     'backend_flush_after', 'max_wal_size', 'checkpoint_timeout', "
							   "     'checkpoint_completion_target', 'shared_buffers', 'wal_level', "
							   "     'max_worker_processes')), "
							   "  (SELECT extversion FROM pg_catalog.pg_extension WHERE extname = 'walpressure'), "
							   "  coalesce((r->>'accept_data_loss')::bool, false) "
							   "FROM (SELECT $1::jsonb AS r) s "
							   "RETURNING sweep_id, setting, array_to_string(vals, E'\\x1f'), "
							   "  array_length(vals, 1), repeats, clients, "
							   "  coalesce((settings->>'batch_size')::int, 1) || ',' || "
							   "  coalesce((settings->>'round_trip_us')::int, 0), "
							   "  extract(epoch FROM duration), extract(epoch FROM warmup), workload, "
							   "  prewarm, coalesce(scale, 1), "
							   "  (SELECT string_agg(key || '=' || value, E'\\n') "
							   "   FROM jsonb_each_text(settings) "
							   "   WHERE key NOT IN ('batch_size', 'round_trip_us', 'sql')), "
							   "  settings->>'sql', $1::jsonb->>'search_path', coalesce(iops_cap, 0), "
							   "  accept_data_loss",
							   2, (Oid[]) {TEXTOID, TEXTOID},
							   (Datum[]) {CStringGetTextDatum(wp_sweep->request),
								   CStringGetTextDatum(run_by)},
							   NULL, false, 1);
	if (rc != SPI_OK_INSERT_RETURNING || SPI_processed != 1)
		elog(ERROR, "could not record the sweep: %s", SPI_result_code_string(rc));

	{
		MemoryContext spi = MemoryContextSwitchTo(cxt);
		char	   *fixed;
		char	   *sql;

		plan->id = pg_strtoint64(wp_spi_text(1));
		plan->setting = pstrdup(wp_spi_text(2));
		vals = pstrdup(wp_spi_text(3));
		plan->nvals = pg_strtoint32(wp_spi_text(4));
		plan->repeats = pg_strtoint32(wp_spi_text(5));
		plan->clients = pg_strtoint32(wp_spi_text(6));
		if (sscanf(wp_spi_text(7), "%d,%d", &plan->batch_size, &plan->round_trip_us) != 2)
			elog(ERROR, "invalid batch_size or round_trip_us");
		plan->duration_s = strtod(wp_spi_text(8), NULL);
		plan->warmup_s = strtod(wp_spi_text(9), NULL);
		plan->workload = wp_workload_from_name(wp_spi_text(10));
		plan->prewarm = strcmp(wp_spi_text(11), "t") == 0;
		plan->scale = pg_strtoint32(wp_spi_text(12));
		fixed = wp_spi_text(13);
		plan->fixed_settings = wp_split_fixed(plan, fixed ? fixed : "");
		sql = wp_spi_text(14);
		plan->sql = pstrdup(sql ? sql : "");
		sql = wp_spi_text(15);
		plan->search_path = pstrdup(sql ? sql : "");
		plan->iops_cap = pg_strtoint32(wp_spi_text(16));
		plan->accept_data_loss = strcmp(wp_spi_text(17), "t") == 0;
		MemoryContextSwitchTo(spi);
	}
	wp_as_owner_end();
	wp_xact_end();

	plan->vals = palloc(sizeof(char *) * plan->nvals);
	for (int i = 0; i < plan->nvals; i++)
	{
		char	   *sep = strchr(vals, '\x1f');

		if (sep)
			*sep = '\0';
		plan->vals[i] = vals;
		vals = sep ? sep + 1 : vals + strlen(vals);
	}
	plan->setting_is_guc = !wp_is_load_param(plan->setting);
	plan->setting_is_server = wp_is_server_setting(plan->setting);
	plan->server_names = list_copy(plan->fixed_server_names);
	if (plan->setting_is_server)
		plan->server_names = lappend(plan->server_names, plan->setting);
}

static void
wp_check_ack(const WpPlan *plan, const char *name, const char *value)
{
	if (!wp_is_server_setting(name))
		elog(ERROR, "\"%s\" is not a server-wide setting walpressure changes", name);
	if (wp_data_loss(name, value) != NULL && !plan->accept_data_loss)
		elog(ERROR, "%s = %s can corrupt the cluster in a crash and needs accept_data_loss", name, value);
}

/*
 * Check again what run_sweep checked, where a wrong value would do harm
 * here: _launch_sweep can be called directly by whoever may execute it.
 */
static void
wp_plan_check(WpPlan *plan)
{
	bool		load = wp_is_load_param(plan->setting);
	int			min_value = strcmp(plan->setting, "round_trip_us") == 0 ? 0 : 1;
	int			max_clients = load && strcmp(plan->setting, "clients") == 0 ? 0 : plan->clients;
	char	   *lines = pstrdup(plan->fixed_settings);
	char	   *save = NULL;

	if (!load && !wp_is_sweepable(plan->setting))
		elog(ERROR, "walpressure cannot sweep \"%s\"", plan->setting);
	/* not wp_setting_lines(): a line without '=' is checked here, not skipped */
	for (char *line = strtok_r(lines, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
	{
		char	   *eq = strchr(line, '=');

		if (eq)
			*eq = '\0';
		if (!wp_is_sweepable(line))
			elog(ERROR, "walpressure cannot set \"%s\"", line);
	}
	for (int i = 0; i < plan->nvals; i++)
	{
		if (load && pg_strtoint32(plan->vals[i]) < min_value)
			elog(ERROR, "invalid value for %s: \"%s\"", plan->setting, plan->vals[i]);
		if (strcmp(plan->setting, "clients") == 0)
			max_clients = Max(max_clients, pg_strtoint32(plan->vals[i]));
	}
	/* what can corrupt the cluster runs only if the caller accepted that */
	{
		ListCell   *ln;
		ListCell   *lv;

		forboth(ln, plan->fixed_server_names, lv, plan->fixed_server_values)
			wp_check_ack(plan, lfirst(ln), lfirst(lv));
		if (plan->setting_is_server)
			for (int i = 0; i < plan->nvals; i++)
				wp_check_ack(plan, plan->setting, plan->vals[i]);
	}
	if (max_clients < 1 || max_clients > wp_sweep->nslots)
		elog(ERROR, "%d clients: walpressure has slots for 1 to %d (max_worker_processes)",
			 max_clients, wp_sweep->nslots);
	if (plan->batch_size < 1 || plan->round_trip_us < 0 ||
		plan->repeats < 1 || plan->duration_s <= 0 ||
		plan->warmup_s < 0)
		elog(ERROR, "invalid sweep arguments");
	if (strlen(plan->sql) >= WP_SQL_MAX)
		elog(ERROR, "the custom SQL is longer than the %d bytes walpressure can hold",
			 WP_SQL_MAX - 1);
	if (strchr(plan->search_path, '\n') != NULL)
		elog(ERROR, "invalid search_path");
}

/* ---------- the IOPS cap ---------- */

/*
 * Take the cap for the sweep: record the limits to restore first (in the
 * state file, for a crash), then enrol the server in the cgroup.
 */
static void
wp_cap_begin(WpPlan *plan)
{
	if (plan->iops_cap <= 0 && strcmp(plan->setting, "iops_cap") != 0)
		return;
	plan->cap_mode = wp_cgroup_check();
	plan->dev = wp_wal_device(NULL);
	plan->have_dev = true;
	wp_cgroup_get_limits(plan->cap_mode, plan->dev, &plan->prev_write_iops,
						 &plan->prev_read_iops);
	plan->cap_active = true;
	wp_state_file_write(plan->id, MyDatabaseId, plan);
	(void) wp_cgroup_enroll(plan->cap_mode);
}

/* The write cap of a step: the swept value, or the sweep's. */
static int64
wp_cap_of_step(const WpPlan *plan, const char *value)
{
	if (strcmp(plan->setting, "iops_cap") == 0)
		return pg_strtoint32(value);
	return plan->iops_cap;
}

/*
 * Put the limits back as they were.  False (and a WARNING) if that failed;
 * the state file then stays, so the next server start tries again.
 */
static bool
wp_cap_end(WpPlan *plan)
{
	bool		ok = true;

	if (!plan->cap_active)
		return true;
	PG_TRY();
	{
		wp_cgroup_set_limits(plan->cap_mode, plan->dev, plan->prev_write_iops,
							 plan->prev_read_iops);
		plan->cap_active = false;
	}
	PG_CATCH();
	{
		EmitErrorReport();
		FlushErrorState();
		ereport(WARNING,
				(errmsg("walpressure could not remove the IOPS cap of sweep " INT64_FORMAT " from %u:%u",
						plan->id, plan->dev.major, plan->dev.minor),
				 errhint("The next server start tries again; clear_iops_cap() removes it now.")));
		ok = false;
	}
	PG_END_TRY();
	return ok;
}

/*
 * Reads and writes issued to the pg_wal disk so far: the cgroup's counters
 * (the server's IOs) under a cap, /proc/diskstats (the whole disk's)
 * otherwise.  False when there is no such disk.
 */
static bool
wp_device_ios(const WpPlan *plan, uint64 *reads, uint64 *writes)
{
	if (plan->cap_active)
		return wp_cgroup_ios(plan->cap_mode, plan->dev, reads, writes);
	return plan->have_dev && wp_diskstats_ios(plan->dev, reads, writes);
}

/* ---------- server-wide settings ---------- */

/*
 * Take the server-wide settings for the sweep: record what to restore
 * (server_settings.c), then the values before the first change, then apply
 * the fixed ones.
 */
static void
wp_server_begin(WpPlan *plan)
{
	StringInfoData orig;
	StringInfoData names;
	ListCell   *lc;
	int			rc;

	if (plan->server_names == NIL)
		return;
	wp_server_settings_begin(plan->id, plan->server_names);
	plan->server_active = true;

	initStringInfo(&orig);
	initStringInfo(&names);
	foreach(lc, plan->server_names)
	{
		appendStringInfo(&orig, "%s=%s\n", (char *) lfirst(lc),
						 GetConfigOption(lfirst(lc), false, false));
		appendStringInfo(&names, "%s%s", names.len > 0 ? "\n" : "", (char *) lfirst(lc));
	}
	plan->originals = orig.data;

	/* in the sweep's row: each value, and whether postgresql.auto.conf set it */
	wp_xact_begin();
	wp_as_owner_begin();
	rc = SPI_execute_with_args("UPDATE walpressure.sweeps SET server_originals = "
							   "(SELECT pg_catalog.jsonb_object_agg(name, pg_catalog.jsonb_build_object("
							   "   'setting', setting, 'unit', unit, 'source', source, "
							   "   'in_auto_conf', coalesce(sourcefile LIKE '%/postgresql.auto.conf', false))) "
							   " FROM pg_catalog.pg_settings "
							   " WHERE name = ANY (pg_catalog.string_to_array($2, E'\\n'))) "
							   "WHERE sweep_id = $1",
							   2, (Oid[]) {INT8OID, TEXTOID},
							   (Datum[]) {Int64GetDatum(plan->id), CStringGetTextDatum(names.data)},
							   NULL, false, 0);
	if (rc != SPI_OK_UPDATE)
		elog(ERROR, "could not record the server settings of sweep " INT64_FORMAT, plan->id);
	wp_as_owner_end();
	wp_xact_end();

	if (plan->fixed_server_names != NIL)
		wp_server_settings_apply(plan->fixed_server_names, plan->fixed_server_values);
}

/*
 * Put the server-wide settings back.  On failure a WARNING; the record
 * stays, so the next server start restores them.
 */
static void
wp_server_end(WpPlan *plan)
{
	if (!plan->server_active)
		return;
	PG_TRY();
	{
		/* no new process starts while the server shuts down: no check then */
		plan->server_restored = wp_server_settings_end(plan->id, !wp_terminated, plan->originals);
		plan->server_active = false;
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		EmitErrorReport();
		edata = wp_catch_error(TopMemoryContext);
		plan->server_restored = psprintf("NOT restored (%s): the next server start restores them",
										 edata->message);
		ereport(WARNING,
				(errmsg("walpressure could not restore the server settings of sweep " INT64_FORMAT,
						plan->id),
				 errhint("The next server start restores them.")));
	}
	PG_END_TRY();
}

/*
 * The step's settings that can lose data in a crash, as labels: the
 * server's fsync and full_page_writes as now in effect, the clients'
 * synchronous_commit (the step's, or the role's and database's default).
 */
static char *
wp_step_data_loss(const WpPlan *plan, const char *value)
{
	static const char *const names[] = {"fsync", "full_page_writes", "synchronous_commit"};
	StringInfoData out;
	List	   *fixed_values;
	List	   *fixed_names = wp_setting_lines(plan->fixed_settings, &fixed_values);

	initStringInfo(&out);
	for (int i = 0; i < lengthof(names); i++)
	{
		const char *v = GetConfigOption(names[i], false, false);
		const char *label;
		ListCell   *n,
				   *f;

		forboth(n, fixed_names, f, fixed_values)
		{
			if (strcmp(lfirst(n), names[i]) == 0)
				v = lfirst(f);
		}
		if (strcmp(plan->setting, names[i]) == 0)
			v = value;
		label = wp_data_loss(names[i], v);
		if (label)
			appendStringInfo(&out, "%s%s", out.len > 0 ? ", " : "", label);
	}
	return out.len > 0 ? out.data : NULL;
}

/* ---------- clients ---------- */

/*
 * Start `n` clients for the current step and wait until they run.
 */
static void
wp_clients_start(int n)
{
	wp_client_handles = MemoryContextAllocZero(TopMemoryContext,
											   sizeof(BackgroundWorkerHandle *) * n);
	for (int i = 0; i < n; i++)
	{
		BackgroundWorker worker;
		pid_t		pid;

		wp_dynamic_worker(&worker, "wp_client_main", "walpressure client");
		snprintf(worker.bgw_name, BGW_MAXLEN, "walpressure client %d", i + 1);
		worker.bgw_main_arg = Int32GetDatum(i);

		if (!RegisterDynamicBackgroundWorker(&worker, &wp_client_handles[i]))
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_RESOURCES),
					 errmsg("could not start client worker %d of %d", i + 1, n),
					 errhint("Raise max_worker_processes (now %d) to at least %d and restart the server.",
							 max_worker_processes, n + 2)));
		wp_nclients_running = i + 1;
		if (WaitForBackgroundWorkerStartup(wp_client_handles[i], &pid) != BGWH_STARTED)
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_RESOURCES),
					 errmsg("client worker %d of %d did not start", i + 1, n),
					 errhint("See the server log.")));
	}
}

/*
 * Raise an error if a client stopped on an error or died.
 */
static void
wp_clients_check(void)
{
	for (int i = 0; i < wp_nclients_running; i++)
	{
		WpClientSlot *c = &wp_sweep->client[i];
		pid_t		pid;

		if (c->error[0] != '\0')
			ereport(ERROR,
					(errmsg("client worker %d stopped: %s", i + 1, c->error)));
		if (pg_atomic_read_u32(&c->done) == 0 &&
			GetBackgroundWorkerPid(wp_client_handles[i], &pid) == BGWH_STOPPED)
			ereport(ERROR,
					(errmsg("client worker %d exited unexpectedly", i + 1),
					 errhint("See the server log.")));
	}
}

/*
 * Stop the clients and wait until they have exited (and so flushed their
 * statistics).  Safe to call when none run.
 */
static void
wp_clients_stop(void)
{
	pg_atomic_write_u32(&wp_sweep->stop, 1);
	for (int i = 0; i < wp_nclients_running; i++)
	{
		/* one that does not stop in time is terminated, then given up on */
		for (int waited = 0;; waited += 100)
		{
			pid_t		pid;

			if (GetBackgroundWorkerPid(wp_client_handles[i], &pid) == BGWH_STOPPED)
				break;
			if (waited == WP_CLIENT_WAIT_MS)
				TerminateBackgroundWorker(wp_client_handles[i]);
			if (waited >= 3 * WP_CLIENT_WAIT_MS)
			{
				ereport(WARNING,
						(errmsg("walpressure client worker %d (pid %d) does not stop", i + 1,
								(int) pid)));
				break;
			}
			(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
							 100, PG_WAIT_EXTENSION);
			ResetLatch(MyLatch);
		}
	}
	wp_nclients_running = 0;
}

/*
 * Wait `ms`, watching for a cancel and for failing clients.  False when the
 * sweep was cancelled.
 */
static bool
wp_sleep(long ms)
{
	TimestampTz end = TimestampTzPlusMilliseconds(GetCurrentTimestamp(), ms);

	for (;;)
	{
		long		left = TimestampDifferenceMilliseconds(GetCurrentTimestamp(), end);

		if (wp_cancelled())
			return false;
		wp_clients_check();
		if (left <= 0)
			return true;
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 Min(left, 100), PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
}

/*
 * Have every client flush its pending statistics, so that pg_stat_wal read
 * next covers everything they did.
 */
static bool
wp_clients_flush(int n)
{
	uint32		gen = pg_atomic_add_fetch_u32(&wp_sweep->flush_gen, 1);

	for (int waited = 0; waited < WP_CLIENT_WAIT_MS; waited += 10)
	{
		bool		all = true;

		for (int i = 0; i < n && all; i++)
			all = pg_atomic_read_u32(&wp_sweep->client[i].flushed_gen) == gen;
		if (all)
			return true;
		if (!wp_sleep(10))
			return false;
	}
	return true;				/* a very long transaction: go on, a bit early */
}

/* ---------- one step ---------- */

static double
wp_ms(double us)
{
	return us < 0 ? -1 : us / 1000.0;
}

/*
 * A checkpoint, and its statistics in: the checkpointer wakes the waiter
 * before it reports the checkpoint to pgstat, and the step's own checkpoint
 * must not count as one inside the measured window.
 */
static void
wp_step_checkpoint(void)
{
	int64		timed0, req0, timed, req;
	double		w, s;

	pgstat_clear_snapshot();
	wp_read_checkpoints(&timed0, &req0, &w, &s);
	RequestCheckpoint(CHECKPOINT_IMMEDIATE | CHECKPOINT_FORCE | CHECKPOINT_WAIT);
	for (int waited = 0; waited < 5000; waited += 10)
	{
		pgstat_clear_snapshot();
		wp_read_checkpoints(&timed, &req, &w, &s);
		if (timed + req > timed0 + req0)
			break;
		pg_usleep(10000L);
		CHECK_FOR_INTERRUPTS();
	}
}

/*
 * Run one step and measure it.  False when cancelled (nothing measured).
 */
static bool
wp_run_step(WpPlan *plan, const char *value, const WpLoad *load,
			WpStepResult *r, WpStepSample *samples, int *nsamples)
{
	StringInfoData settings;
	WpCounters	c0;
	WpCounters	c1;
	WpHistPair *h0 = palloc(sizeof(WpHistPair));
	WpHistPair *h1 = palloc(sizeof(WpHistPair));
	WpClientTotals *t0 = palloc(sizeof(WpClientTotals));
	WpClientTotals *t1 = palloc(sizeof(WpClientTotals));
	WpClientTotals *tprev = palloc(sizeof(WpClientTotals));
	WpHistSnap *delta = palloc(sizeof(WpHistSnap));
	WpCounters	cprev;
	TimestampTz window_end;
	uint64		n;
	bool		ok = false;
	uint64		reads0 = 0;
	uint64		writes0 = 0;
	uint64		reads1;
	uint64		writes1;
	bool		have_ios;

	memset(r, 0, sizeof(*r));
	*nsamples = 0;
	r->read_iops = r->write_iops = -1;

	/* a server-wide value first, in effect before the checkpoint and clients */
	if (plan->setting_is_server)
		wp_server_settings_apply(list_make1(plan->setting), list_make1(pstrdup(value)));
	r->data_loss = wp_step_data_loss(plan, value);

	/* the same WAL state at every step's start: no pending full-page images */
	wp_step_checkpoint();
	if (plan->cap_active)
	{
		r->iops_cap = wp_cap_of_step(plan, value);
		wp_cgroup_set_limits(plan->cap_mode, plan->dev, r->iops_cap, plan->prev_read_iops);
	}

	/* the step's parameters, then fresh client slots */
	initStringInfo(&settings);
	if (plan->search_path[0] != '\0')
		appendStringInfo(&settings, "search_path=%s\n", plan->search_path);
	appendStringInfoString(&settings, plan->fixed_settings);
	if (plan->setting_is_guc && !plan->setting_is_server)
		appendStringInfo(&settings, "\n%s=%s", plan->setting, value);
	if (settings.len >= WP_SETTINGS_MAX)
		elog(ERROR, "the step's settings are too long");
	strlcpy(wp_sweep->settings, settings.data, WP_SETTINGS_MAX);
	strlcpy(wp_sweep->sql, plan->sql, WP_SQL_MAX);
	wp_sweep->workload = plan->workload;
	wp_sweep->nclients = load->clients;
	wp_sweep->batch_size = load->batch_size;
	wp_sweep->round_trip_us = load->round_trip_us;
	wp_sweep->scale = plan->scale;
	for (int i = 0; i < load->clients; i++)
	{
		WpClientSlot *c = &wp_sweep->client[i];

		memset(c, 0, sizeof(WpClientSlot));
		pg_atomic_init_u64(&c->txns, 0);
		pg_atomic_init_u64(&c->retries, 0);
		pg_atomic_init_u32(&c->flushed_gen, pg_atomic_read_u32(&wp_sweep->flush_gen));
		pg_atomic_init_u32(&c->done, 0);
		for (int b = 0; b < WP_HIST_BUCKETS; b++)
			pg_atomic_init_u64(&c->hist.bucket[b], 0);
	}
	pg_atomic_write_u32(&wp_sweep->stop, 0);
	pg_write_barrier();

	wp_clients_start(load->clients);
	if (!wp_sleep((long) (plan->warmup_s * 1000)))
		goto stop;

	/* window start: everything the clients did so far is in pg_stat_wal */
	if (!wp_clients_flush(load->clients))
		goto stop;
	pgstat_clear_snapshot();
	wp_read_counters(&c0, h0);
	r->lsn_start = c0.insert_lsn;
	wp_client_sum(load->clients, t0);
	have_ios = wp_device_ios(plan, &reads0, &writes0);
	r->started_at = c0.ts;
	cprev = c0;
	memcpy(tprev, t0, sizeof(WpClientTotals));

	/* the measured window, one sample a second */
	window_end = TimestampTzPlusMilliseconds(c0.ts, (int64) (plan->duration_s * 1000));
	for (;;)
	{
		long		left = TimestampDifferenceMilliseconds(GetCurrentTimestamp(), window_end);
		WpCounters	cnow;
		WpClientTotals *tnow = t1;
		double		secs;
		WpStepSample *s;

		if (left <= 0)
			break;
		if (!wp_sleep(Min(left, 1000)))
			goto stop;

		pgstat_clear_snapshot();
		wp_read_counters(&cnow, NULL);
		wp_client_sum(load->clients, tnow);
		secs = (double) (cnow.ts - cprev.ts) / USECS_PER_SEC;
		if (*nsamples < (int) ceil(plan->duration_s) + 1 && secs > 0)
		{
			s = &samples[(*nsamples)++];
			s->tps = (tnow->txns - tprev->txns) / secs;
			wp_hist_subtract(delta, &tnow->hist, &tprev->hist);
			s->latency_p50_ms = wp_ms(wp_hist_percentile(delta, 0.50));
			s->latency_p99_ms = wp_ms(wp_hist_percentile(delta, 0.99));
			s->commits = cnow.commits - cprev.commits;
			s->wal_fsyncs = cnow.wal_sync - cprev.wal_sync;
			s->wal_bytes = cnow.wal_bytes - cprev.wal_bytes;
		}
		cprev = cnow;
		memcpy(tprev, tnow, sizeof(WpClientTotals));
	}

	/* window end: the clients' own figures now, the server's after they exit */
	wp_client_sum(load->clients, t1);
	r->seconds = (double) (GetCurrentTimestamp() - c0.ts) / USECS_PER_SEC;
	if (have_ios && wp_device_ios(plan, &reads1, &writes1))
	{
		r->read_iops = (reads1 - reads0) / r->seconds;
		r->write_iops = (writes1 - writes0) / r->seconds;
	}
	wp_clients_check();
	wp_clients_stop();
	pgstat_clear_snapshot();
	wp_read_counters(&c1, h1);
	r->lsn_end = c1.insert_lsn;

	n = t1->txns - t0->txns;
	r->transactions = n;
	r->retries = t1->retries - t0->retries;
	r->tps = n / r->seconds;
	if (n > 0)
	{
		double		mean = (t1->latency_ms - t0->latency_ms) / n;
		double		var = (t1->latency_sq_ms - t0->latency_sq_ms) / n - mean * mean;

		r->latency_avg_ms = mean;
		r->latency_stddev_ms = sqrt(Max(var, 0.0));
	}
	wp_hist_subtract(delta, &t1->hist, &t0->hist);
	r->latency_p50_ms = wp_ms(wp_hist_percentile(delta, 0.50));
	r->latency_p95_ms = wp_ms(wp_hist_percentile(delta, 0.95));
	r->latency_p99_ms = wp_ms(wp_hist_percentile(delta, 0.99));

	r->span_s = (double) (c1.ts - c0.ts) / USECS_PER_SEC;
	r->commits = c1.commits - c0.commits;
	r->leaders = c1.leaders - c0.leaders;
	r->wal_fsyncs = c1.wal_sync - c0.wal_sync;
	/* open_sync and open_datasync sync each write and count no fsync */
	if (strncmp(GetConfigOption("wal_sync_method", false, false), "open_", 5) == 0)
		r->wal_fsyncs = c1.wal_write - c0.wal_write;
	r->fsync_avg_ms = c1.timed_fsyncs > c0.timed_fsyncs ?
		(double) (c1.fsync_time_us - c0.fsync_time_us) / (c1.timed_fsyncs - c0.timed_fsyncs) / 1000.0 : -1;
	wp_hist_subtract(delta, &h1->fsync, &h0->fsync);
	r->fsync_p50_ms = wp_ms(wp_hist_percentile(delta, 0.50));
	r->fsync_p99_ms = wp_ms(wp_hist_percentile(delta, 0.99));
	r->wal_bytes = c1.wal_bytes - c0.wal_bytes;
	r->wal_records = c1.wal_records - c0.wal_records;
	r->wal_fpi = c1.wal_fpi - c0.wal_fpi;
	r->wal_buffers_full = c1.wal_buffers_full - c0.wal_buffers_full;
	r->ckpt_timed = c1.ckpt_timed - c0.ckpt_timed;
	r->ckpt_requested = c1.ckpt_requested - c0.ckpt_requested;
	r->ckpt_write_ms = c1.ckpt_write_ms - c0.ckpt_write_ms;
	r->ckpt_sync_ms = c1.ckpt_sync_ms - c0.ckpt_sync_ms;
	ok = true;

stop:
	wp_clients_stop();
	return ok;
}

/* Datum of a figure that is NULL when negative (not measured). */
#define FIG(v) Float8GetDatum(v)
#define FIGNULL(v) ((v) < 0 ? 'n' : ' ')

/*
 * Insert a step's row and its samples, and count it done; one transaction.
 */
static void
wp_record_step(WpPlan *plan, int step, int value_pos, int repeat,
			   const WpLoad *load, const WpStepResult *r,
			   const WpStepSample *samples, int nsamples)
{
	Datum		v[43];
	char		nulls[43];
	Oid			types[43];
	int			k = 0;
	int			rc;

#define ARG(type, datum, isnull) \
	(types[k] = (type), v[k] = (datum), nulls[k] = (isnull) ? 'n' : ' ', k++)

	ARG(INT8OID, Int64GetDatum(plan->id), false);
	ARG(INT4OID, Int32GetDatum(step), false);
	ARG(TEXTOID, CStringGetTextDatum(plan->vals[value_pos - 1]), false);
	ARG(INT4OID, Int32GetDatum(value_pos), false);
	ARG(INT4OID, Int32GetDatum(repeat), false);
	ARG(INT4OID, Int32GetDatum(load->clients), false);
	ARG(INT4OID, Int32GetDatum(load->batch_size),
		plan->workload != WP_WORKLOAD_BATCH_INSERT);
	ARG(INT4OID, Int32GetDatum(load->round_trip_us), false);
	ARG(TIMESTAMPTZOID, TimestampTzGetDatum(r->started_at), false);
	ARG(FLOAT8OID, FIG(r->seconds), false);
	ARG(INT8OID, Int64GetDatum(r->transactions), false);
	ARG(INT8OID, Int64GetDatum(r->retries), false);
	ARG(FLOAT8OID, FIG(r->tps), false);
	ARG(FLOAT8OID, FIG(r->tps * (plan->workload == WP_WORKLOAD_BATCH_INSERT ? load->batch_size : 1)),
		plan->workload != WP_WORKLOAD_BATCH_INSERT &&
		plan->workload != WP_WORKLOAD_INSERT_ONLY);
	ARG(FLOAT8OID, FIG(r->latency_avg_ms), r->transactions == 0);
	ARG(FLOAT8OID, FIG(r->latency_stddev_ms), r->transactions == 0);
	ARG(FLOAT8OID, FIG(r->latency_p50_ms), r->latency_p50_ms < 0);
	ARG(FLOAT8OID, FIG(r->latency_p95_ms), r->latency_p95_ms < 0);
	ARG(FLOAT8OID, FIG(r->latency_p99_ms), r->latency_p99_ms < 0);
	ARG(INT8OID, Int64GetDatum(r->commits), false);
	ARG(INT8OID, Int64GetDatum(r->leaders), false);
	ARG(INT8OID, Int64GetDatum(r->wal_fsyncs), false);
	ARG(FLOAT8OID, FIG(r->wal_fsyncs > 0 ? (double) r->commits / r->wal_fsyncs : -1),
		r->wal_fsyncs == 0);
	ARG(FLOAT8OID, FIG(r->wal_fsyncs / r->span_s), false);
	ARG(FLOAT8OID, FIG(r->fsync_avg_ms), r->fsync_avg_ms < 0);
	ARG(FLOAT8OID, FIG(r->fsync_p50_ms), r->fsync_p50_ms < 0);
	ARG(FLOAT8OID, FIG(r->fsync_p99_ms), r->fsync_p99_ms < 0);
	ARG(INT8OID, Int64GetDatum(r->wal_bytes), false);
	ARG(INT8OID, Int64GetDatum(r->wal_records), false);
	ARG(INT8OID, Int64GetDatum(r->wal_fpi), false);
	ARG(FLOAT8OID, FIG(r->wal_records > 0 ? 100.0 * r->wal_fpi / r->wal_records : -1),
		r->wal_records == 0);
	ARG(INT8OID, Int64GetDatum(r->wal_buffers_full), false);
	ARG(INT8OID, Int64GetDatum(r->ckpt_timed), false);
	ARG(INT8OID, Int64GetDatum(r->ckpt_requested), false);
	ARG(FLOAT8OID, FIG(r->span_s), false);
	ARG(INT4OID, Int32GetDatum((int32) r->iops_cap), r->iops_cap <= 0);
	ARG(FLOAT8OID, FIG(r->read_iops), r->read_iops < 0);
	ARG(FLOAT8OID, FIG(r->write_iops), r->write_iops < 0);
	ARG(FLOAT8OID, FIG(r->ckpt_write_ms), false);
	ARG(FLOAT8OID, FIG(r->ckpt_sync_ms), false);
	ARG(TEXTOID, r->data_loss ? CStringGetTextDatum(r->data_loss) : (Datum) 0, r->data_loss == NULL);
	ARG(PG_LSNOID, LSNGetDatum(r->lsn_start), XLogRecPtrIsInvalid(r->lsn_start));
	ARG(PG_LSNOID, LSNGetDatum(r->lsn_end), XLogRecPtrIsInvalid(r->lsn_end));
#undef ARG

	wp_xact_begin();
	wp_as_owner_begin();
	rc = SPI_execute_with_args(
							   "INSERT INTO walpressure.steps (sweep_id, step, value, value_pos, repeat, "
							   "  clients, batch_size, round_trip_us, started_at, seconds, transactions, retries, tps, "
							   "  rows_per_s, latency_avg_ms, latency_stddev_ms, latency_p50_ms, "
							   "  latency_p95_ms, latency_p99_ms, commits, leaders, wal_fsyncs, "
							   "  commits_per_fsync, wal_fsyncs_per_s, fsync_avg_ms, fsync_p50_ms, "
							   "  fsync_p99_ms, wal_bytes, wal_records, wal_fpi, fpi_pct, "
							   "  wal_buffers_full, checkpoints_timed, checkpoints_requested, server_seconds, "
							   "  iops_cap, read_iops, write_iops, checkpoint_write_ms, checkpoint_sync_ms, "
							   "  data_loss, wal_lsn_start, wal_lsn_end) "
							   "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, "
							   "  $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, "
							   "  $30, $31, $32, $33, $34, $35, $36, $37, $38, $39, $40, $41, $42, $43)",
							   k, types, v, nulls, false, 0);
	if (rc != SPI_OK_INSERT)
		elog(ERROR, "could not record step %d: %s", step, SPI_result_code_string(rc));

	for (int i = 0; i < nsamples; i++)
	{
		const WpStepSample *s = &samples[i];

		rc = SPI_execute_with_args(
								   "INSERT INTO walpressure.step_samples (sweep_id, step, second, tps, "
								   "  latency_p50_ms, latency_p99_ms, commits, wal_fsyncs, wal_bytes) "
								   "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
								   9,
								   (Oid[]) {INT8OID, INT4OID, INT4OID, FLOAT8OID, FLOAT8OID,
									   FLOAT8OID, INT8OID, INT8OID, INT8OID},
								   (Datum[]) {Int64GetDatum(plan->id), Int32GetDatum(step),
									   Int32GetDatum(i + 1), FIG(s->tps), FIG(s->latency_p50_ms),
									   FIG(s->latency_p99_ms), Int64GetDatum(s->commits),
									   Int64GetDatum(s->wal_fsyncs), Int64GetDatum(s->wal_bytes)},
								   (char[]) {' ', ' ', ' ', ' ', FIGNULL(s->latency_p50_ms),
									   FIGNULL(s->latency_p99_ms), ' ', ' ', ' '},
								   false, 0);
		if (rc != SPI_OK_INSERT)
			elog(ERROR, "could not record a sample of step %d", step);
	}

	rc = SPI_execute_with_args("UPDATE walpressure.sweeps SET steps_done = steps_done + 1 "
							   "WHERE sweep_id = $1",
							   1, (Oid[]) {INT8OID}, (Datum[]) {Int64GetDatum(plan->id)},
							   NULL, false, 0);
	if (rc != SPI_OK_UPDATE)
		elog(ERROR, "could not update sweep " INT64_FORMAT, plan->id);
	wp_as_owner_end();
	wp_xact_end();
}

/*
 * Close the sweep row with its final status.
 */
static void
wp_sweep_close(int64 id, const char *status, const char *error, const char *restored)
{
	int			rc;

	wp_xact_begin();
	wp_as_owner_begin();
	rc = SPI_execute_with_args("UPDATE walpressure.sweeps SET status = $2, error = $3, "
							   "finished_at = clock_timestamp(), "
							   "server_settings_restored = coalesce($4, server_settings_restored) "
							   "WHERE sweep_id = $1",
							   4, (Oid[]) {INT8OID, TEXTOID, TEXTOID, TEXTOID},
							   (Datum[]) {Int64GetDatum(id), CStringGetTextDatum(status),
								   error ? CStringGetTextDatum(error) : (Datum) 0,
								   restored ? CStringGetTextDatum(restored) : (Datum) 0},
							   (char[]) {' ', ' ', error ? ' ' : 'n', restored ? ' ' : 'n'},
							   false, 0);
	if (rc != SPI_OK_UPDATE)
		elog(ERROR, "could not close sweep " INT64_FORMAT, id);
	wp_as_owner_end();
	wp_xact_end();
}

/*
 * Tell the launching backend that something changed.
 */
void
wp_wake_launcher(void)
{
	int			procno = wp_sweep->launcher_procno;

	if (procno >= 0 && procno < (int) ProcGlobal->allProcCount)
		SetLatch(&ProcGlobal->allProcs[procno].procLatch);
}

/*
 * Prewarm the pgbench tables as the caller, so a step reads no data blocks.
 */
static void
wp_prewarm(void)
{
	wp_xact_begin();
	if (SPI_execute("SELECT walpressure.prewarm()", false, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not prewarm the pgbench tables");
	wp_xact_end();
}

static bool wp_finished = false;

/*
 * On an exit that did not go through the end of wp_coordinator_main (a
 * FATAL error, a failed connection): free the sweep block, and have the
 * sweep closed as the recovery worker closes one after a crash.
 */
static void
wp_coordinator_exit(int code, Datum arg)
{
	if (wp_finished)
		return;
	pg_atomic_write_u32(&wp_sweep->stop, 1);
	wp_worker_finish("failed", "the coordinator exited unexpectedly (see the server log)",
					 wp_sweep->sweep_id);
	wp_sweep_state_file_check();
}

/*
 * Entry point of the coordinator.
 */
void
wp_coordinator_main(Datum main_arg)
{
	WpPlan		plan;
	MemoryContext cxt;
	const char *status = "done";
	char	   *error = NULL;
	int			total;

	memset(&plan, 0, sizeof(plan));
	pqsignal(SIGTERM, wp_coordinator_sigterm);
	BackgroundWorkerUnblockSignals();
	before_shmem_exit(wp_coordinator_exit, 0);
	BackgroundWorkerInitializeConnectionByOid(wp_sweep->dboid, wp_sweep->roleoid, 0);
	pgstat_report_appname("walpressure coordinator");
	cxt = AllocSetContextCreate(TopMemoryContext, "walpressure coordinator",
								ALLOCSET_DEFAULT_SIZES);
	MemoryContextSwitchTo(cxt);

	PG_TRY();
	{
		WpStepResult result;
		WpStepSample *samples;
		int			step = 0;

		wp_sweep_record(&plan);
		wp_state_file_write(plan.id, MyDatabaseId, NULL);
		wp_plan_check(&plan);
		if (plan.search_path[0] != '\0')
			SetConfigOption("search_path", plan.search_path, PGC_USERSET, PGC_S_SESSION);
		plan.have_dev = wp_wal_device_try(&plan.dev);
		wp_cap_begin(&plan);
		wp_server_begin(&plan);

		total = plan.nvals * plan.repeats;
		LWLockAcquire(wp_sweep_lock, LW_EXCLUSIVE);
		wp_sweep->sweep_id = plan.id;
		wp_sweep->steps_total = total;
		wp_sweep->state = WP_SWEEP_RUNNING;
		LWLockRelease(wp_sweep_lock);
		wp_wake_launcher();

		samples = palloc(sizeof(WpStepSample) * ((int) ceil(plan.duration_s) + 1));
		if (plan.prewarm && plan.workload != WP_WORKLOAD_CUSTOM)
			wp_prewarm();

		/* repeats interleaved: 0,100,500,0,100,500 so drift is not an effect */
		for (int repeat = 1; repeat <= plan.repeats && !wp_cancelled(); repeat++)
		{
			for (int pos = 1; pos <= plan.nvals && !wp_cancelled(); pos++)
			{
				const char *value = plan.vals[pos - 1];
				WpLoad		load = {plan.clients, plan.batch_size, plan.round_trip_us};
				int			nsamples;

				step++;
				if (strcmp(plan.setting, "clients") == 0)
					load.clients = pg_strtoint32(value);
				else if (strcmp(plan.setting, "batch_size") == 0)
					load.batch_size = pg_strtoint32(value);
				else if (strcmp(plan.setting, "round_trip_us") == 0)
					load.round_trip_us = pg_strtoint32(value);

				pgstat_report_activity(STATE_RUNNING, psprintf("sweep " INT64_FORMAT " step %d/%d: %s = %s",
																plan.id, step, total, plan.setting, value));
				if (!wp_run_step(&plan, value, &load, &result, samples, &nsamples))
					break;
				wp_record_step(&plan, step, pos, repeat, &load,
							   &result, samples, nsamples);

				snprintf(wp_sweep->last_step, WP_MESSAGE_MAX,
						 "sweep " INT64_FORMAT " step %d/%d: %s = %s%s: %.1f tps, %s%s",
						 plan.id, step, total, plan.setting, value,
						 plan.repeats > 1 ? psprintf(" (repeat %d)", repeat) : "",
						 result.tps,
						 result.wal_fsyncs > 0 ?
						 psprintf("%.2f commits per fsync",
								  (double) result.commits / result.wal_fsyncs) :
						 "no WAL fsyncs",
						 result.write_iops >= 0 ?
						 psprintf(", %.0f write IOPS", result.write_iops) : "");
				pg_write_barrier();
				pg_atomic_write_u32(&wp_sweep->steps_done, step);
				wp_wake_launcher();
			}
		}
		/* a cancel that came after the last step changes nothing */
		if (wp_cancelled() && (int) pg_atomic_read_u32(&wp_sweep->steps_done) < total)
		{
			status = "cancelled";
			if (wp_terminated)
				error = "the coordinator was terminated (server shutdown or pg_terminate_backend)";
		}
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		EmitErrorReport();
		edata = wp_catch_error(cxt);
		status = "failed";
		error = edata->message;
	}
	PG_END_TRY();

	wp_clients_stop();
	if (plan.id > 0)
	{
		bool		cap_removed = wp_cap_end(&plan);

		wp_server_end(&plan);
		wp_sweep_close(plan.id, status, error, plan.server_restored);
		if (cap_removed)
			wp_state_file_remove();
	}

	wp_finished = true;
	wp_worker_finish(status, error, plan.id);
	proc_exit(0);
}

/*-------------------------------------------------------------------------
 *
 * result_rows.c
 *		The rows a sweep leaves behind.  The sweep row is inserted when the
 *		coordinator starts (the caller's transaction is still open), a step's
 *		row and its per-second samples when the step ends, in a transaction
 *		of their own, so a cancel or a crash loses at most the step in
 *		flight; the sweep row is closed with its status at the end.
 *
 * The rows are written as the extension's owner, so a caller who was
 * granted run_sweep needs no rights on the result tables.  As with any code
 * run on behalf of a less privileged role, the caller's search_path must not
 * reach it: it runs with search_path = pg_catalog, pg_temp, as a restricted
 * operation.  Each row is built from one list of (column, value) pairs.
 *
 * IDENTIFICATION
 *	  src/coordinator/result_rows.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>
#include <unistd.h>

#include "access/xact.h"
#include "catalog/pg_type.h"
#include "commands/dbcommands.h"
#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "storage/fd.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/pg_lsn.h"
#include "utils/snapmgr.h"
#include "utils/timestamp.h"

#include "system/cgroup.h"
#include "system/walsenders.h"
#include "coordinator/result_rows.h"
#include "system/pgss.h"

/* ---------- transactions, as the extension's owner ---------- */

static Oid	wp_owner = InvalidOid;
static Oid	wp_saved_user;
static int	wp_saved_sec;
static int	wp_saved_nestlevel;

void
wp_xact_begin(void)
{
	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	SPI_connect();
	PushActiveSnapshot(GetTransactionSnapshot());
}

void
wp_xact_end(void)
{
	SPI_finish();
	PopActiveSnapshot();
	CommitTransactionCommand();
}

/*
 * Begin a transaction whose SPI work runs as the extension's owner with a
 * safe search_path; ends with wp_owner_end().
 */
static void
wp_owner_begin(void)
{
	wp_xact_begin();
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
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_OBJECT),
					 errmsg("extension \"walpressure\" is not installed in this database")));
		wp_owner = DatumGetObjectId(SPI_getbinval(SPI_tuptable->vals[0],
												  SPI_tuptable->tupdesc, 1, &isnull));
	}
	SetUserIdAndSecContext(wp_owner, wp_saved_sec | SECURITY_LOCAL_USERID_CHANGE |
						   SECURITY_RESTRICTED_OPERATION);
}

static void
wp_owner_end(void)
{
	SetUserIdAndSecContext(wp_saved_user, wp_saved_sec);
	AtEOXact_GUC(false, wp_saved_nestlevel);
	wp_xact_end();
}

/* ---------- rows from one column list ---------- */

#define WP_MAX_COLS 96

typedef struct WpRow
{
	int			n;
	const char *names[WP_MAX_COLS];
	Oid			types[WP_MAX_COLS];
	Datum		values[WP_MAX_COLS];
	char		nulls[WP_MAX_COLS];
} WpRow;

static void
wp_col(WpRow *row, const char *name, Oid type, Datum value, bool isnull)
{
	Assert(row->n < WP_MAX_COLS);
	row->names[row->n] = name;
	row->types[row->n] = type;
	row->values[row->n] = isnull ? (Datum) 0 : value;
	row->nulls[row->n] = isnull ? 'n' : ' ';
	row->n++;
}

/* A figure that is NULL when negative (not measured). */
static void
wp_col_fig(WpRow *row, const char *name, double v)
{
	wp_col(row, name, FLOAT8OID, Float8GetDatum(v), v < 0);
}

/*
 * INSERT the row into `table`, with `returning` (or NULL); the SPI result
 * holds what it returned.
 */
static void
wp_row_insert(WpRow *row, const char *table, const char *returning)
{
	StringInfoData sql;
	int			rc;

	initStringInfo(&sql);
	appendStringInfo(&sql, "INSERT INTO %s (", table);
	for (int i = 0; i < row->n; i++)
		appendStringInfo(&sql, "%s%s", i > 0 ? ", " : "", row->names[i]);
	appendStringInfoString(&sql, ") VALUES (");
	for (int i = 0; i < row->n; i++)
		appendStringInfo(&sql, "%s$%d", i > 0 ? ", " : "", i + 1);
	appendStringInfoChar(&sql, ')');
	if (returning)
		appendStringInfo(&sql, " RETURNING %s", returning);
	rc = SPI_execute_with_args(sql.data, row->n, row->types, row->values, row->nulls,
							   false, 0);
	if (rc != (returning ? SPI_OK_INSERT_RETURNING : SPI_OK_INSERT))
		elog(ERROR, "could not insert into %s: %s", table, SPI_result_code_string(rc));
}

/* ---------- the sweep row ---------- */

/* The server settings each sweep row records, as they are at its start. */
#define WP_SNAPSHOT_SETTINGS \
	"'commit_delay', 'commit_siblings', 'synchronous_commit', 'fsync', " \
	"'full_page_writes', 'wal_sync_method', 'wal_writer_delay', " \
	"'wal_writer_flush_after', 'wal_buffers', 'wal_compression', " \
	"'backend_flush_after', 'max_wal_size', 'checkpoint_timeout', " \
	"'checkpoint_completion_target', 'shared_buffers', 'wal_level', " \
	"'max_worker_processes', 'synchronous_standby_names'"

/* An interval of `seconds` (at most a day: run_sweep's bound). */
static Datum
wp_interval(double seconds)
{
	Interval   *iv = palloc0(sizeof(Interval));

	iv->time = (TimeOffset) rint(seconds * USECS_PER_SEC);
	return IntervalPGetDatum(iv);
}

/*
 * Does walpressure.`table` have `column`?  An extension not yet updated
 * (ALTER EXTENSION walpressure UPDATE after installing a new library) has
 * the columns of its version: the rows are recorded without the newer
 * ones.  Inside SPI, as the owner.
 */
static bool
wp_has_column(const char *table, const char *column)
{
	if (SPI_execute_with_args("SELECT 1 FROM pg_catalog.pg_attribute "
							  "WHERE attrelid = pg_catalog.to_regclass('walpressure.' || $1) "
							  "AND attname = $2 AND NOT attisdropped",
							  2, (Oid[]) {TEXTOID, TEXTOID},
							  (Datum[]) {CStringGetTextDatum(table), CStringGetTextDatum(column)},
							  NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not read the columns of walpressure.%s", table);
	return SPI_processed == 1;
}

/*
 * Do two values of a setting mean the same ('200ms' and '200' for
 * wal_writer_delay, 'on' and 'true')?  Read by the setting's type, with
 * its unit; other text compares without case.
 */
static bool
wp_same_value(const char *vartype, int flags, const char *a, const char *b)
{
	if (strcmp(vartype, "integer") == 0)
	{
		int			x,
					y;

		return parse_int(a, &x, flags, NULL) && parse_int(b, &y, flags, NULL) && x == y;
	}
	if (strcmp(vartype, "real") == 0)
	{
		double		x,
					y;

		return parse_real(a, &x, flags, NULL) && parse_real(b, &y, flags, NULL) && x == y;
	}
	if (strcmp(vartype, "bool") == 0)
	{
		bool		x,
					y;

		return parse_bool(a, &x) && parse_bool(b, &y) && x == y;
	}
	return pg_strcasecmp(a, b) == 0;
}

/*
 * A setting as a new session of the sweep's role gets it, as SHOW shows it:
 * this session's, but for synchronous_commit, which the coordinator sets
 * to local for its own commits (replication.c).
 */
static const char *
wp_clients_setting(const char *name)
{
	if (strcmp(name, "synchronous_commit") == 0)
		return wp_default_sync_commit();
	return GetConfigOptionByName(name, NULL, false);
}

/*
 * The swept setting's value as the sweep found it, what a new session of
 * the caller in this database gets (this worker connected as one), and the
 * index of the value that means the same, -1 when none does.  NULL for the
 * load, which has no setting.  Runs as the owner, inside the row's
 * transaction.
 */
static bool
wp_is_current(const char *name, const char *value)
{
	const char *cur = wp_clients_setting(name);	/* as SHOW shows it */
	char	   *vartype;

	if (SPI_execute_with_args("SELECT vartype FROM pg_catalog.pg_settings WHERE name = $1",
							  1, (Oid[]) {TEXTOID},
							  (Datum[]) {CStringGetTextDatum(name)},
							  NULL, true, 1) != SPI_OK_SELECT || SPI_processed != 1)
		elog(ERROR, "could not read the type of setting %s", name);
	vartype = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);
	return wp_same_value(vartype, GetConfigOptionFlags(name, false), cur, value);
}

/*
 * A configuration sweep's current configuration is '{}', the settings as
 * they are: a value means the same when each setting it sets (and its
 * clients) is as it is.
 */
static const char *
wp_current_config(const WpSweepRequest *req, int *pos)
{
	for (int i = 0; i < req->nvals && *pos < 0; i++)
	{
		bool		same = req->ivals[i] == 0 || req->ivals[i] == req->clients;

		for (int s = req->cfg_first[i]; same && s < req->cfg_first[i] + req->cfg_n[i]; s++)
			same = wp_is_current(req->cfg[s].name, req->cfg[s].value);
		if (same)
			*pos = i;
	}
	return "{}";
}

static const char *
wp_current_value(const WpSweepRequest *req, int *pos)
{
	*pos = -1;
	if (req->kind == WP_PARAM_CONFIG)
		return wp_current_config(req, pos);
	if (req->kind != WP_PARAM_SESSION && req->kind != WP_PARAM_SERVER)
		return NULL;
	for (int i = 0; i < req->nvals; i++)
		if (wp_is_current(req->setting, req->vals[i]))
		{
			*pos = i;
			break;
		}
	return wp_clients_setting(req->setting);
}

/* The first line of a small file under /sys, or NULL. */
static char *
wp_sys_line(const char *path)
{
	char		buf[256];
	FILE	   *f = AllocateFile(path, "r");
	char	   *line = NULL;

	if (f == NULL)
		return NULL;
	if (fgets(buf, sizeof(buf), f) != NULL)
	{
		buf[strcspn(buf, "\n")] = '\0';
		line = pstrdup(buf);
	}
	FreeFile(f);
	return line;
}

/*
 * The disk pg_wal is on, for the sweep's fingerprint: "254:0 vda, not
 * rotational" (what /sys says of it); NULL when it has no block device.
 */
static char *
wp_wal_disk(void)
{
	WpDevice	dev;
	char	   *uevent;
	char	   *name = NULL;
	char	   *rot;
	FILE	   *f;
	char		buf[256];

	if (!wp_wal_device_try(&dev))
		return NULL;
	uevent = psprintf("/sys/dev/block/%u:%u/uevent", dev.major, dev.minor);
	if ((f = AllocateFile(uevent, "r")) != NULL)
	{
		while (fgets(buf, sizeof(buf), f) != NULL)
			if (strncmp(buf, "DEVNAME=", 8) == 0)
			{
				buf[strcspn(buf, "\n")] = '\0';
				name = pstrdup(buf + 8);
			}
		FreeFile(f);
	}
	/* a partition's queue is its disk's */
	rot = wp_sys_line(psprintf("/sys/dev/block/%u:%u/queue/rotational", dev.major, dev.minor));
	if (rot == NULL)
		rot = wp_sys_line(psprintf("/sys/dev/block/%u:%u/../queue/rotational", dev.major, dev.minor));
	return psprintf("%u:%u%s%s%s", dev.major, dev.minor, name ? " " : "", name ? name : "",
					rot == NULL ? "" : strcmp(rot, "0") == 0 ? ", not rotational" : ", rotational");
}

/*
 * Record the sweep row from the request; returns its id.
 */
int64
wp_results_sweep_insert(const WpSweepRequest *req)
{
	WpRow		row = {0};
	Datum	   *vals = palloc(sizeof(Datum) * req->nvals);
	char	   *run_by;
	int64		id;
	bool		isnull;
	const char *current;
	int			current_pos;
	char	   *wal_disk;

	for (int i = 0; i < req->nvals; i++)
		vals[i] = CStringGetTextDatum(req->vals[i]);

	wp_owner_begin();
	run_by = GetUserNameFromId(wp_saved_user, false);
	wp_col(&row, "label", TEXTOID, CStringGetTextDatum(req->label), !req->has_label);
	wp_col(&row, "setting", TEXTOID, CStringGetTextDatum(req->setting), false);
	wp_col(&row, "vals", TEXTARRAYOID,
		   PointerGetDatum(construct_array(vals, req->nvals, TEXTOID, -1, false, TYPALIGN_INT)),
		   false);
	wp_col(&row, "clients", INT4OID, Int32GetDatum(req->clients), false);
	wp_col(&row, "duration", INTERVALOID, wp_interval(req->duration_s), false);
	wp_col(&row, "workload", TEXTOID, CStringGetTextDatum(wp_workload_name(req->workload)), false);
	wp_col(&row, "iops_cap", INT4OID, Int32GetDatum(req->iops_cap), req->iops_cap <= 0);
	wp_col(&row, "warmup", INTERVALOID, wp_interval(req->warmup_s), false);
	wp_col(&row, "repeats", INT4OID, Int32GetDatum(req->repeats), false);
	if (req->auto_repeats)
	{
		wp_col(&row, "auto_repeats", BOOLOID, BoolGetDatum(true), false);
		wp_col(&row, "budget", INTERVALOID, wp_interval(req->budget_s), req->budget_s <= 0);
	}
	wp_col(&row, "settings", JSONBOID, PointerGetDatum(req->settings_jsonb), false);
	wp_col(&row, "prewarm", BOOLOID, BoolGetDatum(req->prewarm), false);
	wp_col(&row, "scale", INT4OID, Int32GetDatum(req->scale), req->workload == WP_WORKLOAD_CUSTOM);
	wp_col(&row, "run_by", TEXTOID, CStringGetTextDatum(run_by), false);
	wp_col(&row, "database", TEXTOID, CStringGetTextDatum(get_database_name(MyDatabaseId)), false);
	wp_col(&row, "steps_total", INT4OID, Int32GetDatum(req->nvals * req->repeats), false);
	wp_col(&row, "accept_data_loss", BOOLOID, BoolGetDatum(req->accept_data_loss), false);
	wp_col(&row, "engine", TEXTOID,
		   CStringGetTextDatum(req->engine == WP_ENGINE_PGBENCH ? "pgbench" : "backend"), false);
	wp_col(&row, "script", TEXTOID, CStringGetTextDatum(req->sql), !req->is_script);
	if (wp_has_column("sweeps", "on_standby_loss"))	/* 0.6.0 */
	{
		const char *standby = req->standby_conninfo[0] ? wp_conninfo_redacted(req->standby_conninfo) : NULL;

		wp_col(&row, "on_standby_loss", TEXTOID,
			   CStringGetTextDatum(req->standby_loss_skip ? "skip" : "stop"), false);
		wp_col(&row, "standby_conninfo", TEXTOID, standby ? CStringGetTextDatum(standby) : (Datum) 0,
			   standby == NULL);
	}
	if (wp_has_column("sweeps", "checkpoint"))	/* 0.4.0 */
		wp_col(&row, "checkpoint", BOOLOID, BoolGetDatum(req->checkpoint), false);
	if (wp_has_column("sweeps", "current_value"))	/* 0.3.0 */
	{
		current = wp_current_value(req, &current_pos);
		wp_col(&row, "current_value", TEXTOID, current ? CStringGetTextDatum(current) : (Datum) 0,
			   current == NULL);
		wp_col(&row, "current_pos", INT4OID, Int32GetDatum(current_pos + 1), current_pos < 0);
		wp_col(&row, "cpus", INT4OID, Int32GetDatum((int32) sysconf(_SC_NPROCESSORS_ONLN)),
			   sysconf(_SC_NPROCESSORS_ONLN) <= 0);
		wal_disk = wp_wal_disk();
		wp_col(&row, "wal_disk", TEXTOID, wal_disk ? CStringGetTextDatum(wal_disk) : (Datum) 0,
			   wal_disk == NULL);
	}
	wp_row_insert(&row, "walpressure.sweeps", "sweep_id");
	id = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));

	/* what the server was running with, and which walpressure */
	if (SPI_execute_with_args("UPDATE walpressure.sweeps SET "
							  "server_settings = (SELECT pg_catalog.jsonb_object_agg(name, "
							  "  CASE WHEN name = 'synchronous_commit' THEN reset_val ELSE setting END) "
							  "  FROM pg_catalog.pg_settings WHERE name IN (" WP_SNAPSHOT_SETTINGS ")), "
							  "walpressure_version = (SELECT extversion FROM pg_catalog.pg_extension "
							  "  WHERE extname = 'walpressure') "
							  "WHERE sweep_id = $1",
							  1, (Oid[]) {INT8OID}, (Datum[]) {Int64GetDatum(id)},
							  NULL, false, 0) != SPI_OK_UPDATE)
		elog(ERROR, "could not record the server settings of sweep " INT64_FORMAT, id);
	wp_owner_end();
	return id;
}

/*
 * In the sweep's row: each server-wide setting it changes as it was
 * before, and whether postgresql.auto.conf set it.
 */
void
wp_results_server_originals(int64 sweep_id, List *names)
{
	StringInfoData list;
	ListCell   *lc;
	int			rc;

	initStringInfo(&list);
	foreach(lc, names)
		appendStringInfo(&list, "%s%s", list.len > 0 ? "\n" : "", (char *) lfirst(lc));
	wp_owner_begin();
	rc = SPI_execute_with_args("UPDATE walpressure.sweeps SET server_originals = "
							   "(SELECT pg_catalog.jsonb_object_agg(name, pg_catalog.jsonb_build_object("
							   "   'setting', setting, 'unit', unit, 'source', source, "
							   "   'in_auto_conf', coalesce(sourcefile LIKE '%/postgresql.auto.conf', false))) "
							   " FROM pg_catalog.pg_settings "
							   " WHERE name = ANY (pg_catalog.string_to_array($2, E'\\n'))) "
							   "WHERE sweep_id = $1",
							   2, (Oid[]) {INT8OID, TEXTOID},
							   (Datum[]) {Int64GetDatum(sweep_id), CStringGetTextDatum(list.data)},
							   NULL, false, 0);
	if (rc != SPI_OK_UPDATE)
		elog(ERROR, "could not record the server settings of sweep " INT64_FORMAT, sweep_id);
	wp_owner_end();
}

/* ---------- step rows ---------- */

/*
 * Insert a step's row and its samples, and count it done; one transaction.
 */
void
wp_results_step_insert(int64 sweep_id, const WpSweepRequest *req, int step, int pos,
					   int repeat, const WpLoadSpec *spec, const WpStepResult *r,
					   const WpStepSample *samples, int nsamples)
{
	WpRow		row = {0};
	bool		batch = req->workload == WP_WORKLOAD_BATCH_INSERT;
	bool		rows = batch || req->workload == WP_WORKLOAD_INSERT_ONLY;
	int			rc;
	bool		with_time;
	bool		with_standbys;

	wp_col(&row, "sweep_id", INT8OID, Int64GetDatum(sweep_id), false);
	wp_col(&row, "step", INT4OID, Int32GetDatum(step), false);
	wp_col(&row, "value", TEXTOID, CStringGetTextDatum(req->vals[pos]), false);
	wp_col(&row, "value_pos", INT4OID, Int32GetDatum(pos + 1), false);
	wp_col(&row, "repeat", INT4OID, Int32GetDatum(repeat), false);
	wp_col(&row, "clients", INT4OID, Int32GetDatum(spec->clients), false);
	wp_col(&row, "batch_size", INT4OID, Int32GetDatum(spec->batch_size), !batch);
	wp_col(&row, "round_trip_us", INT4OID, Int32GetDatum(spec->round_trip_us), false);
	wp_col(&row, "started_at", TIMESTAMPTZOID, TimestampTzGetDatum(r->started_at), false);
	wp_col_fig(&row, "seconds", r->seconds);
	wp_col(&row, "transactions", INT8OID, Int64GetDatum(r->transactions), false);
	wp_col(&row, "retries", INT8OID, Int64GetDatum(r->retries), false);
	wp_col_fig(&row, "tps", r->tps);
	wp_col(&row, "rows_per_s", FLOAT8OID,
		   Float8GetDatum(r->tps * (batch ? spec->batch_size : 1)), !rows);
	wp_col_fig(&row, "latency_avg_ms", r->transactions > 0 ? r->latency_avg_ms : -1);
	wp_col_fig(&row, "latency_stddev_ms", r->transactions > 0 ? r->latency_stddev_ms : -1);
	wp_col_fig(&row, "latency_p50_ms", r->latency_p50_ms);
	wp_col_fig(&row, "latency_p95_ms", r->latency_p95_ms);
	wp_col_fig(&row, "latency_p99_ms", r->latency_p99_ms);
	wp_col(&row, "commits", INT8OID, Int64GetDatum(r->commits), false);
	wp_col(&row, "leaders", INT8OID, Int64GetDatum(r->leaders), false);
	/* figures from statistics reset in the window are void: NULL */
	wp_col(&row, "wal_fsyncs", INT8OID, Int64GetDatum(r->wal_fsyncs), r->wal_reset);
	wp_col_fig(&row, "commits_per_fsync",
			   r->wal_fsyncs > 0 && !r->wal_reset ? (double) r->commits / r->wal_fsyncs : -1);
	wp_col_fig(&row, "wal_fsyncs_per_s", r->wal_reset ? -1 : r->span_s > 0 ? r->wal_fsyncs / r->span_s : 0);
	wp_col_fig(&row, "fsync_avg_ms", r->fsync_avg_ms);
	wp_col_fig(&row, "fsync_p50_ms", r->fsync_p50_ms);
	wp_col_fig(&row, "fsync_p99_ms", r->fsync_p99_ms);
	wp_col(&row, "wal_bytes", INT8OID, Int64GetDatum(r->wal_bytes), r->wal_reset);
	wp_col(&row, "wal_records", INT8OID, Int64GetDatum(r->wal_records), r->wal_reset);
	wp_col(&row, "wal_fpi", INT8OID, Int64GetDatum(r->wal_fpi), r->wal_reset);
	wp_col_fig(&row, "fpi_pct", r->wal_records > 0 && !r->wal_reset ? 100.0 * r->wal_fpi / r->wal_records : -1);
	wp_col(&row, "wal_buffers_full", INT8OID, Int64GetDatum(r->wal_buffers_full), r->wal_reset);
	wp_col(&row, "checkpoints_timed", INT8OID, Int64GetDatum(r->ckpt_timed), r->ckpt_reset);
	wp_col(&row, "checkpoints_requested", INT8OID, Int64GetDatum(r->ckpt_requested), r->ckpt_reset);
	wp_col(&row, "server_seconds", FLOAT8OID, Float8GetDatum(r->span_s), false);
	wp_col(&row, "iops_cap", INT4OID, Int32GetDatum((int32) r->iops_cap), r->iops_cap <= 0);
	wp_col_fig(&row, "read_iops", r->read_iops);
	wp_col_fig(&row, "write_iops", r->write_iops);
	wp_col(&row, "checkpoint_write_ms", FLOAT8OID, Float8GetDatum(r->ckpt_write_ms), r->ckpt_reset);
	wp_col(&row, "checkpoint_sync_ms", FLOAT8OID, Float8GetDatum(r->ckpt_sync_ms), r->ckpt_reset);
	wp_col(&row, "data_loss", TEXTOID,
		   r->data_loss ? CStringGetTextDatum(r->data_loss) : (Datum) 0, r->data_loss == NULL);
	wp_col(&row, "discarded", TEXTOID,
		   r->discarded ? CStringGetTextDatum(r->discarded) : (Datum) 0, r->discarded == NULL);
	wp_col(&row, "setup_s", FLOAT8OID, Float8GetDatum(r->setup_s), false);
	wp_col_fig(&row, "client_cpu_s", r->client_cpu_s);
	wp_col_fig(&row, "server_cpu_s", r->server_cpu_s);
	wp_col(&row, "wal_lsn_start", PG_LSNOID, LSNGetDatum(r->lsn_start),
		   XLogRecPtrIsInvalid(r->lsn_start));
	wp_col(&row, "wal_lsn_end", PG_LSNOID, LSNGetDatum(r->lsn_end),
		   XLogRecPtrIsInvalid(r->lsn_end));

	wp_owner_begin();
	if (wp_has_column("steps", "fpi_bytes"))	/* 0.4.0 */
	{
		wp_col(&row, "fpi_bytes", INT8OID, Int64GetDatum(r->fpi_bytes), r->fpi_bytes < 0);
		wp_col(&row, "buffers_checkpoint", INT8OID, Int64GetDatum(r->buf_ckpt), r->buf_reset);
		wp_col(&row, "buffers_clean", INT8OID, Int64GetDatum(r->buf_clean), r->buf_reset);
		wp_col(&row, "buffers_backend", INT8OID, Int64GetDatum(r->buf_backend), r->buf_reset);
		wp_col(&row, "buffers_backend_fsync", INT8OID, Int64GetDatum(r->buf_backend_fsync), r->buf_reset);
	}
	with_standbys = wp_has_column("steps", "syncrep_wait_pct");	/* 0.6.0 */
	if (with_standbys)
	{
		wp_col_fig(&row, "syncrep_wait_pct", r->syncrep_wait_pct);
		wp_col_fig(&row, "syncrep_wait_ms", r->syncrep_wait_ms);
		wp_col_fig(&row, "standby_wal_mb_per_s", r->standby_wal_mb_per_s);
		wp_col_fig(&row, "standby_wal_writes_per_s", r->standby_wal_writes_per_s);
		wp_col_fig(&row, "standby_wal_fsyncs_per_s", r->standby_wal_fsyncs_per_s);
		wp_col_fig(&row, "standby_write_iops", r->standby_write_iops);
		wp_col(&row, "standby_source", TEXTOID,
			   r->standby_source ? CStringGetTextDatum(r->standby_source) : (Datum) 0,
			   r->standby_source == NULL);
	}
	wp_row_insert(&row, "walpressure.steps", NULL);
	for (int i = 0; with_standbys && i < r->nstandbys; i++)
	{
		const WpStandbyFig *f = &r->standbys[i];
		WpRow		srow = {0};

		wp_col(&srow, "sweep_id", INT8OID, Int64GetDatum(sweep_id), false);
		wp_col(&srow, "step", INT4OID, Int32GetDatum(step), false);
		wp_col(&srow, "standby", TEXTOID, CStringGetTextDatum(f->name), false);
		wp_col(&srow, "pid", INT4OID, Int32GetDatum(f->pid), false);
		wp_col(&srow, "sync_state", TEXTOID, CStringGetTextDatum(f->sync_state), false);
		wp_col(&srow, "samples", INT4OID, Int32GetDatum(f->samples), false);
		wp_col_fig(&srow, "write_lag_ms_mean", f->nwrite > 0 ? f->write_lag_ms_sum / f->nwrite : -1);
		wp_col_fig(&srow, "write_lag_ms_max", f->nwrite > 0 ? f->write_lag_ms_max : -1);
		wp_col_fig(&srow, "flush_lag_ms_mean", f->nflush > 0 ? f->flush_lag_ms_sum / f->nflush : -1);
		wp_col_fig(&srow, "flush_lag_ms_max", f->nflush > 0 ? f->flush_lag_ms_max : -1);
		wp_col_fig(&srow, "replay_lag_ms_mean", f->nreplay > 0 ? f->replay_lag_ms_sum / f->nreplay : -1);
		wp_col_fig(&srow, "replay_lag_ms_max", f->nreplay > 0 ? f->replay_lag_ms_max : -1);
		wp_col_fig(&srow, "behind_bytes_mean", f->samples > 0 ? f->behind_bytes_sum / f->samples : -1);
		wp_col_fig(&srow, "behind_bytes_max", f->samples > 0 ? f->behind_bytes_max : -1);
		wp_row_insert(&srow, "walpressure.step_replication", NULL);
	}
	with_time = wp_has_column("step_samples", "sample_time");	/* 0.3.0 */
	for (int i = 0; i < nsamples; i++)
	{
		const WpStepSample *s = &samples[i];
		WpRow		srow = {0};

		wp_col(&srow, "sweep_id", INT8OID, Int64GetDatum(sweep_id), false);
		wp_col(&srow, "step", INT4OID, Int32GetDatum(step), false);
		wp_col(&srow, "second", INT4OID, Int32GetDatum(i + 1), false);
		if (with_time)
			wp_col(&srow, "sample_time", TIMESTAMPTZOID, TimestampTzGetDatum(s->at), false);
		wp_col(&srow, "tps", FLOAT8OID, Float8GetDatum(s->tps), false);
		wp_col_fig(&srow, "latency_p50_ms", s->latency_p50_ms);
		wp_col_fig(&srow, "latency_p99_ms", s->latency_p99_ms);
		wp_col(&srow, "commits", INT8OID, Int64GetDatum(s->commits), false);
		wp_col(&srow, "wal_fsyncs", INT8OID, Int64GetDatum(s->wal_fsyncs), s->wal_fsyncs < 0);
		wp_col(&srow, "wal_bytes", INT8OID, Int64GetDatum(s->wal_bytes), s->wal_bytes < 0);
		wp_row_insert(&srow, "walpressure.step_samples", NULL);
	}
	if (r->nstmts > 0 && wp_has_column("step_statements", "queryid"))	/* 0.5.0 */
		for (int i = 0; i < r->nstmts; i++)
		{
			const WpStmtFig *f = &r->stmts[i];
			WpRow		qrow = {0};

			wp_col(&qrow, "sweep_id", INT8OID, Int64GetDatum(sweep_id), false);
			wp_col(&qrow, "step", INT4OID, Int32GetDatum(step), false);
			wp_col(&qrow, "rank", INT4OID, Int32GetDatum(i + 1), false);
			wp_col(&qrow, "queryid", INT8OID, Int64GetDatum(f->queryid), false);
			wp_col(&qrow, "query", TEXTOID, CStringGetTextDatum(f->query), false);
			wp_col(&qrow, "calls", INT8OID, Int64GetDatum(f->calls), false);
			wp_col(&qrow, "total_ms", FLOAT8OID, Float8GetDatum(f->total_ms), false);
			wp_col(&qrow, "mean_ms", FLOAT8OID, Float8GetDatum(f->mean_ms), false);
			wp_col(&qrow, "stddev_ms", FLOAT8OID, Float8GetDatum(f->stddev_ms), false);
			wp_col(&qrow, "rows", INT8OID, Int64GetDatum(f->rows), false);
			wp_col(&qrow, "wal_bytes", INT8OID, Int64GetDatum(f->wal_bytes), false);
			wp_row_insert(&qrow, "walpressure.step_statements", NULL);
		}
	rc = SPI_execute_with_args("UPDATE walpressure.sweeps SET steps_done = steps_done + 1 "
							   "WHERE sweep_id = $1",
							   1, (Oid[]) {INT8OID}, (Datum[]) {Int64GetDatum(sweep_id)},
							   NULL, false, 0);
	if (rc != SPI_OK_UPDATE)
		elog(ERROR, "could not update sweep " INT64_FORMAT, sweep_id);
	wp_owner_end();
}

/*
 * repeats => 'auto' or a budget: after each round from the fewest on, is
 * the answer clear?  false to add a round (steps_total grows by one round),
 * true to stop, with why in sweeps.rounds_stop, read from results as best
 * reads it.  `round_s`: what a round took on average; `elapsed_s`: the
 * rounds so far.
 */
bool
wp_results_auto_decide(int64 sweep_id, const WpSweepRequest *req, int rounds,
					   double round_s, double elapsed_s)
{
	const char *why = NULL;
	bool		isnull;
	Datum		d;

	wp_owner_begin();
	if (SPI_execute_with_args(
			"WITH r AS (SELECT * FROM walpressure.results WHERE sweep_id = $1 AND value_pos > 0), "
			"top AS (SELECT * FROM r ORDER BY tps DESC NULLS LAST LIMIT 1), "
			"rival AS (SELECT * FROM r WHERE verdict <> 'baseline' ORDER BY tps DESC NULLS LAST LIMIT 1) "
			"SELECT CASE "
			" WHEN (SELECT verdict FROM top) = 'faster' THEN "
			"  pg_catalog.format('decided: %s beats the baseline beyond its 95%% interval', (SELECT value FROM top)) "
			" WHEN (SELECT verdict FROM top) = 'baseline' AND (SELECT verdict FROM rival) = 'slower' THEN "
			"  pg_catalog.format('decided: the baseline, %s, beats every other value beyond its 95%% interval', (SELECT value FROM top)) "
			" WHEN (SELECT bool_and(tps_ci_high - tps_ci_low <= 0.04 * tps) FROM r) THEN "
			"  'narrow: every 95% interval is within 2% of its mean, and no value differs beyond them' "
			" END",
			1, (Oid[]) {INT8OID}, (Datum[]) {Int64GetDatum(sweep_id)}, NULL, true, 1) != SPI_OK_SELECT ||
		SPI_processed != 1)
		elog(ERROR, "could not read the results of sweep " INT64_FORMAT, sweep_id);
	d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
	if (!isnull)
		why = psprintf("%s, after %d rounds", TextDatumGetCString(d), rounds);
	else if (rounds >= req->max_repeats)
		why = psprintf("undecided after %d rounds, the most %s", rounds,
					   req->budget_s > 0 ? "a sweep may have" : "without a budget");
	else if (req->budget_s > 0 && elapsed_s + round_s > req->budget_s)
		why = psprintf("undecided after %d rounds: another (about %.0f s) would pass the budget of %.0f s",
					   rounds, round_s, req->budget_s);
	if (SPI_execute_with_args(why ?
							  "UPDATE walpressure.sweeps SET rounds_stop = $2 WHERE sweep_id = $1" :
							  "UPDATE walpressure.sweeps SET steps_total = steps_total + $3 WHERE sweep_id = $1",
							  3, (Oid[]) {INT8OID, TEXTOID, INT4OID},
							  (Datum[]) {Int64GetDatum(sweep_id), why ? CStringGetTextDatum(why) : (Datum) 0,
							  Int32GetDatum(req->nvals)},
							  why ? "   " : " n ", false, 0) != SPI_OK_UPDATE)
		elog(ERROR, "could not update sweep " INT64_FORMAT, sweep_id);
	wp_owner_end();
	return why != NULL;
}

/*
 * Close the sweep row with its final status.
 */
void
wp_results_sweep_close(int64 sweep_id, const char *status, const char *error,
					   const char *restored)
{
	int			rc;

	wp_owner_begin();
	rc = SPI_execute_with_args("UPDATE walpressure.sweeps SET status = $2, error = $3, "
							   "finished_at = pg_catalog.clock_timestamp(), "
							   "server_settings_restored = coalesce($4, server_settings_restored) "
							   "WHERE sweep_id = $1",
							   4, (Oid[]) {INT8OID, TEXTOID, TEXTOID, TEXTOID},
							   (Datum[]) {Int64GetDatum(sweep_id), CStringGetTextDatum(status),
								   error ? CStringGetTextDatum(error) : (Datum) 0,
								   restored ? CStringGetTextDatum(restored) : (Datum) 0},
							   (char[]) {' ', ' ', error ? ' ' : 'n', restored ? ' ' : 'n'},
							   false, 0);
	if (rc != SPI_OK_UPDATE)
		elog(ERROR, "could not close sweep " INT64_FORMAT, sweep_id);
	wp_owner_end();
}

/*-------------------------------------------------------------------------
 *
 * rows_sweep.c
 *		A sweep's row in walpressure.sweeps: inserted when the coordinator
 *		starts, with the arguments, the swept setting's current value (the
 *		baseline), the server's settings and fingerprint; the server-wide
 *		settings' values before the sweep; closed with its status at the
 *		end.
 *
 * IDENTIFICATION
 *	  src/coordinator/rows_sweep.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>
#include <unistd.h>

#include "catalog/pg_type.h"
#include "commands/dbcommands.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/timestamp.h"

#include "coordinator/row_writer.h"
#include "coordinator/rows_sweep.h"
#include "sweep/golden.h"
#include "system/standby_link.h"
#include "system/wal_device.h"
#include "system/walsenders.h"

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
 * to local for its own commits (system/walsenders.c).
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
	wp_rows_read_schema();
	run_by = GetUserNameFromId(wp_owner_caller(), false);
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
	wp_col(&row, "steps_total", INT4OID,
		   Int32GetDatum(req->search != WP_SEARCH_NONE ? wp_golden_first_steps(req) :
						 req->nvals * req->repeats), false);
	wp_col(&row, "accept_data_loss", BOOLOID, BoolGetDatum(req->accept_data_loss), false);
	wp_col(&row, "engine", TEXTOID,
		   CStringGetTextDatum(req->engine == WP_ENGINE_PGBENCH ? "pgbench" : "backend"), false);
	wp_col(&row, "script", TEXTOID, CStringGetTextDatum(req->sql), !req->is_script);
	if (wp_schema_has(600))
	{
		const char *standby = req->standby_conninfo[0] ? wp_conninfo_redacted(req->standby_conninfo) : NULL;

		wp_col(&row, "on_standby_loss", TEXTOID,
			   CStringGetTextDatum(req->standby_loss_skip ? "skip" : "stop"), false);
		wp_col(&row, "standby_conninfo", TEXTOID, standby ? CStringGetTextDatum(standby) : (Datum) 0,
			   standby == NULL);
	}
	if (wp_schema_has(400))
		wp_col(&row, "checkpoint", BOOLOID, BoolGetDatum(req->checkpoint), false);
	if (wp_schema_has(700) && req->search != WP_SEARCH_NONE)
	{
		wp_col(&row, "search", TEXTOID, CStringGetTextDatum("golden"), false);
		wp_col(&row, "search_range", TEXTOID,
			   CStringGetTextDatum(psprintf("[%s, %s]", req->search_low, req->search_high)), false);
		wp_col(&row, "search_resolution", TEXTOID, CStringGetTextDatum(req->search_resolution), false);
	}
	if (wp_schema_has(300))
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
	if (wp_schema_has(700))
	{
		wp_col(&row, "rate", FLOAT8OID, Float8GetDatum(req->rate), req->rate <= 0);
		wp_col(&row, "latency_limit_ms", FLOAT8OID, Float8GetDatum(req->latency_limit_ms),
			   req->latency_limit_ms <= 0);
		/* the disk its cap stands for (a disk sweep: each step's own) */
		wp_col(&row, "disk", TEXTOID, CStringGetTextDatum(wp_disk_model_name(req->disk)),
			   !(req->iops_cap > 0 || strcmp(req->setting, "iops_cap") == 0));
		wp_col(&row, "flush_floor_ms", FLOAT8OID, Float8GetDatum(req->flush_floor_us / 1000.0),
			   !req->uses_paced);
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

/*-------------------------------------------------------------------------
 *
 * run_sweep.c
 *		run_sweep: every argument checked once, here, in the caller's
 *		session and with the caller's rights, into a WpSweepRequest that
 *		job/launch.c hands to the coordinator as it is.
 *
 * Nothing starts before every check has passed, and no check is left for
 * later: each value of the swept setting and of every fixed setting is
 * parsed by the GUC machinery as one value (a value holding a control
 * character is refused before that), the caller's right to set each
 * session setting, to ALTER SYSTEM each server-wide one and to cap the disk
 * is checked as the caller, and the request's sizes are bounded so that it
 * fits the shared block it travels in.  The coordinator and the clients
 * then use the request's fields; they parse nothing.
 *
 * IDENTIFICATION
 *	  src/api/run_sweep.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "catalog/namespace.h"
#include "catalog/pg_authid.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "postmaster/postmaster.h"
#include "nodes/makefuncs.h"
#include "parser/parse_func.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/timestamp.h"

#include "api/arguments.h"
#include "api/configs_request.h"
#include "api/disk_request.h"
#include "api/pgbench_preflight.h"
#include "api/plan_notice.h"
#include "api/rate_request.h"
#include "api/search_request.h"
#include "api/standby_request.h"
#include "api/values.h"
#include "common/text_check.h"
#include "common/safe_spi.h"
#include "common/worker.h"
#include "job/launch.h"
#include "live/shmem.h"
#include "restore/restore.h"
#include "sweep/configs.h"
#include "sweep/policy.h"
#include "sweep/rights.h"
#include "system/cgroup.h"

PG_FUNCTION_INFO_V1(wp_run_sweep);


/* Does the request fix a server-wide setting? */
static bool
wp_request_has_server_setting(const WpSweepRequest *req)
{
	for (int i = 0; i < req->nfixed; i++)
		if (req->fixed[i].kind == WP_PARAM_SERVER)
			return true;
	return false;
}

/*
 * The settings argument: fixed settings for every step, and the load's
 * batch_size, round_trip_us, protocol and sql.  The sql's presence is checked against
 * the workload; the workload's need for it by the caller.
 */
static void
wp_request_settings(WpSweepRequest *req, Jsonb *settings, const char *workload)
{
	JsonbIterator *it;
	JsonbValue	v;
	JsonbIteratorToken tok;
	char	   *key = NULL;

	if (!JB_ROOT_IS_OBJECT(settings) || JB_ROOT_IS_SCALAR(settings))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("settings must be a JSON object, like '{\"commit_siblings\": 5}'")));
	if (VARSIZE(settings) > WP_SETTINGS_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("settings takes %zu bytes, more than the %d walpressure can hold",
						(Size) VARSIZE(settings), WP_SETTINGS_MAX)));
	memcpy(req->settings_jsonb, settings, VARSIZE(settings));

	it = JsonbIteratorInit(&settings->root);
	while ((tok = JsonbIteratorNext(&it, &v, true)) != WJB_DONE)
	{
		char	   *value;
		WpParamKind kind;

		if (tok == WJB_KEY)
		{
			key = pnstrdup(v.val.string.val, v.val.string.len);
			continue;
		}
		if (tok != WJB_VALUE)
			continue;
		value = wp_jsonb_text(&v);
		kind = wp_param_kind(key);

		if (strcmp(key, "sql") == 0)
		{
			if (strcmp(workload, "custom") != 0)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("settings has \"sql\" but the workload is %s", workload),
						 errhint("SQL runs only with workload => 'custom'.")));
			if (req->is_script)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("settings has \"sql\" and a script is given; give one of them")));
			if (value != NULL)
			{
				wp_copy_bounded(req->sql, value, WP_SQL_MAX, "the custom SQL");
				wp_text_check("the custom SQL", req->sql, strlen(req->sql), true);
			}
		}
		else if (strcmp(key, req->setting) == 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("%s is the swept setting; it cannot also be fixed in settings", key)));
		else if (strcmp(key, "batch_size") == 0)
			req->batch_size = wp_check_load_value("batch_size", value);
		else if (strcmp(key, "round_trip_us") == 0)
			req->round_trip_us = wp_check_round_trip(value);
		else if (strcmp(key, "protocol") == 0)
			strlcpy(req->protocol, wp_check_protocol(value), sizeof(req->protocol));
		else if (kind == WP_PARAM_SESSION || kind == WP_PARAM_SERVER)
		{
			WpSetting  *fixed;

			if (value == NULL)
				ereport(ERROR,
						(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
						 errmsg("settings gives %s no value", key)));
			wp_check_setting_value(kind, key, value, req->accept_data_loss);
			if (req->nfixed >= WP_MAX_FIXED)
				ereport(ERROR,
						(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
						 errmsg("settings fixes more than %d settings", WP_MAX_FIXED)));
			fixed = &req->fixed[req->nfixed++];
			strlcpy(fixed->name, key, WP_NAME_MAX);
			strlcpy(fixed->value, value, WP_VALUE_MAX);
			fixed->kind = kind;
		}
		else if (kind == WP_PARAM_LOAD)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("%s is run_sweep's own argument, not a key of settings", key),
					 errhint("Give it as %s => %s.", key, value ? value : "...")));
		else
			wp_refuse_setting(key, "settings");
	}
}

/*
 * The engine, and a pgbench script, which is the workload: only the pgbench
 * engine runs one.
 */
static void
wp_request_engine(WpSweepRequest *req, const char *engine, const char *script,
				  char **workload)
{
	if (strcmp(engine, "backend") == 0)
		req->engine = WP_ENGINE_BACKEND;
	else if (strcmp(engine, "pgbench") == 0)
		req->engine = WP_ENGINE_PGBENCH;
	else
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("unknown engine \"%s\"", engine),
				 errhint("Engines: pgbench (this server's pgbench, over its Unix socket), backend (in-server client workers).")));
	if (script == NULL)
		return;
	if (req->engine != WP_ENGINE_PGBENCH)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("a pgbench script needs engine => 'pgbench'")));
	if (req->workload != WP_WORKLOAD_SIMPLE_UPDATE && req->workload != WP_WORKLOAD_CUSTOM)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("script is the workload; it cannot run with workload %s",
						wp_workload_name(req->workload)),
				 errhint("Leave workload out, or give workload => 'custom'.")));
	if (strspn(script, " \t\r\n\f\v") == strlen(script))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("script is empty")));
	wp_copy_bounded(req->sql, script, WP_SQL_MAX, "the pgbench script");
	wp_text_check("the pgbench script", req->sql, strlen(req->sql), true);
	req->is_script = true;
	req->workload = WP_WORKLOAD_CUSTOM;
	*workload = "custom";
}

/*
 * The pgbench tables the built-in workloads use, as the caller sees them,
 * and their scale.
 */
static int
wp_pgbench_scale(WpSweepRequest *req, const char *workload)
{
	static const char *const tables[] = {
		"pgbench_accounts", "pgbench_branches", "pgbench_history", "pgbench_tellers"
	};
	int			scale;
	bool		isnull;
	int			nest;

	for (int i = 0; i < lengthof(tables); i++)
	{
		req->prewarm_rels[i] = RelnameGetRelid(tables[i]);
		if (!OidIsValid(req->prewarm_rels[i]))
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_TABLE),
					 errmsg("workload %s needs the pgbench tables, and they are missing", workload),
					 errhint("Create them with SELECT walpressure.init_pgbench(10);")));
	}
	req->nprewarm = lengthof(tables);
	wp_rights_tables(workload, req->prewarm_rels[1]);
	SPI_connect();
	nest = wp_safe_path_begin();
	if (SPI_execute(psprintf("SELECT pg_catalog.count(*)::pg_catalog.int4 FROM %s",
							 quote_qualified_identifier(get_namespace_name(get_rel_namespace(req->prewarm_rels[1])),
														get_rel_name(req->prewarm_rels[1]))),
					true, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not count pgbench_branches");
	scale = DatumGetInt32(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
	wp_safe_path_end(nest);
	SPI_finish();
	return scale;
}

/* The error context of the custom statement's check. */
static void
wp_custom_sql_context(void *arg)
{
	errcontext("the sweep's custom SQL (settings->>'sql'), prepared as the caller before the first step");
}

/*
 * The statement the backend engine's clients run: parsed, analysed and
 * planned as the caller, under the caller's search_path, so that a typo or
 * a missing table is an error now, not in the first step.  Nothing runs.
 */
static void
wp_check_custom_sql(const char *sql)
{
	ErrorContextCallback cb = {.previous = error_context_stack, .callback = wp_custom_sql_context};

	SPI_connect();
	error_context_stack = &cb;
	(void) SPI_prepare(sql, 0, NULL);
	error_context_stack = cb.previous;
	SPI_finish();
}

/* The swept setting's name, as PostgreSQL reads one, and where it applies. */
static void
wp_request_setting(FunctionCallInfo fcinfo, WpSweepRequest *req)
{
	wp_copy_bounded(req->setting, text_to_cstring(PG_GETARG_TEXT_PP(A_SETTING)),
					WP_NAME_MAX, "the setting's name");
	wp_fold_name(req->setting);
	req->kind = strcmp(req->setting, "settings") == 0 ? WP_PARAM_CONFIG :
		wp_param_kind(req->setting);
	if (req->kind == WP_PARAM_NONE)
		wp_refuse_setting(req->setting, "sweep");
}

/*
 * What the chosen engine cannot run: round_trip_us is the backend engine's,
 * a protocol other than simple pgbench's;
 * pgbench parses a batch of one INSERT per row before it starts; a custom
 * workload needs its SQL.
 */
static void
wp_request_engine_limits(WpSweepRequest *req)
{
	if (req->engine == WP_ENGINE_BACKEND && req->protocol[0] != '\0' &&
		strcmp(req->protocol, "simple") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("protocol %s is for the pgbench engine", req->protocol),
				 errdetail("The backend engine's clients run each statement as it comes, as the simple protocol does."),
				 errhint("Run the sweep with engine => 'pgbench', or leave protocol out.")));
	if (req->engine == WP_ENGINE_PGBENCH &&
		(strcmp(req->setting, "round_trip_us") == 0 || req->round_trip_us > 0))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("round_trip_us is for the backend engine"),
				 errdetail("It emulates the round trip of a client the in-server clients do not have; pgbench's clients have real ones."),
				 errhint("Run the sweep with engine => 'backend', or leave round_trip_us out.")));
	if (req->engine == WP_ENGINE_PGBENCH && req->workload == WP_WORKLOAD_BATCH_INSERT)
	{
		int			batch = req->batch_size;

		if (strcmp(req->setting, "batch_size") == 0)
			for (int i = 0; i < req->nvals; i++)
				batch = Max(batch, req->ivals[i]);
		if (batch > WP_PGBENCH_BATCH_MAX)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("batch_size %d is more than the pgbench engine takes (%d)",
							batch, WP_PGBENCH_BATCH_MAX),
					 errdetail("Its batch is a pgbench script of one INSERT per row, which pgbench parses before its clients start: about 0.5 s at 1000 rows and 16 s at 5000 here, growing with the square of the rows, taken from the warm-up and the window."),
					 errhint("Run the sweep with engine => 'backend', or with batch_size %d or less.",
							 WP_PGBENCH_BATCH_MAX)));
	}
	if (req->workload == WP_WORKLOAD_CUSTOM && strspn(req->sql, " \t\r\n\f\v") == strlen(req->sql))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("workload custom needs its SQL in settings->>'sql'"),
				 errhint("For example settings => '{\"sql\": \"INSERT INTO t VALUES (1)\"}'.")));
}

/* The load's size and time: clients, the window, the warm-up, the rounds. */
static void
wp_request_time(FunctionCallInfo fcinfo, WpSweepRequest *req)
{
	if (req->clients < 1 && strcmp(req->setting, "clients") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("clients must be at least 1")));
	req->duration_s = wp_seconds_arg(fcinfo, A_DURATION, "duration");
	req->warmup_s = wp_seconds_arg(fcinfo, A_WARMUP, "warmup");
	if (isnan(req->duration_s) || isnan(req->warmup_s))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("duration and warmup must be numbers of seconds, not NaN")));
	wp_repeats_arg(fcinfo, req);
	if (req->duration_s <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("duration must be positive")));
	if (req->warmup_s < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("warmup cannot be negative")));
	if (req->duration_s > WP_DURATION_MAX_S || req->warmup_s > WP_DURATION_MAX_S)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("duration and warmup must each be at most 1 day"),
				 errhint("For a longer experiment, use more repeats.")));
	if (req->search == WP_SEARCH_NONE && (int64) req->repeats * req->nvals > WP_STEPS_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("%d values x %d repeats is more steps than the %d a sweep may have",
						req->nvals, req->repeats, WP_STEPS_MAX)));
	if (req->auto_repeats)
		req->max_repeats = Max(req->repeats,
							   Min(req->budget_s > 0 ? WP_REPEATS_MAX : WP_AUTO_MAX_REPEATS,
								   WP_STEPS_MAX / req->nvals));
}

/*
 * What the server must have free: pgbench's clients are connections (the
 * coordinator is the one worker); in-server clients are workers.
 */
static void
wp_request_workers(WpSweepRequest *req, int64 max_clients)
{
	int64		max_clients_workers = max_clients;
	int			free_workers;

	if (req->engine == WP_ENGINE_PGBENCH)
	{
		if (max_clients > MaxConnections)
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_RESOURCES),
					 errmsg(INT64_FORMAT " pgbench clients are more connections than max_connections = %d",
							max_clients, MaxConnections),
					 errhint("Raise max_connections and restart the server, or use fewer clients.")));
		max_clients_workers = 0;
	}
	free_workers = wp_free_worker_slots();
	if (max_clients_workers + 1 > free_workers)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_RESOURCES),
				 errmsg(INT64_FORMAT " clients need " INT64_FORMAT " background workers (the clients and the coordinator), but only %d of max_worker_processes = %d are free",
						max_clients, max_clients + 1, free_workers, max_worker_processes),
				 errhint("Raise max_worker_processes to at least " INT64_FORMAT " (this sweep's " INT64_FORMAT " and the %d background workers already running) and restart the server, or use fewer clients.",
						 max_worker_processes - free_workers + max_clients + 1,
						 max_clients + 1, max_worker_processes - free_workers)));
	req->max_clients = (int) max_clients;
}

/*
 * What the sweep does on the caller's behalf, the caller's right first:
 * reload for server-wide settings, the disk's cap (and the cgroup's
 * state), a CHECKPOINT per step, prewarm, the pgbench tables and their
 * scale, pgbench itself.
 */
static void
wp_request_server_side(WpSweepRequest *req, const char *workload)
{
	if (wp_request_server_names(req) != NIL || wp_request_has_server_setting(req))
		wp_rights_reload();
	if (req->iops_cap > 0 || strcmp(req->setting, "iops_cap") == 0)
		wp_rights_cap();
	if (req->uses_throttle)
	{
		(void) wp_cgroup_check();
		(void) wp_wal_device(NULL);
	}
	if (req->checkpoint)
		wp_rights_checkpoint();
	if (req->prewarm && req->workload != WP_WORKLOAD_CUSTOM)
		wp_rights_prewarm();
	if (req->workload != WP_WORKLOAD_CUSTOM)
		req->scale = wp_pgbench_scale(req, workload);
	wp_caller_search_path(req->search_path);
	if (req->engine == WP_ENGINE_PGBENCH)
		wp_pgbench_preflight(req);
}

/* The label (one line: report() prints it, plot() draws it), the standbys. */
static void
wp_request_label_standby(FunctionCallInfo fcinfo, WpSweepRequest *req)
{
	if (!PG_ARGISNULL(A_LABEL))
	{
		wp_copy_bounded(req->label, text_to_cstring(PG_GETARG_TEXT_PP(A_LABEL)),
						WP_TEXT_MAX, "label");
		wp_text_check("label", req->label, strlen(req->label), false);
		req->has_label = true;
	}

	/* the steps that wait for a standby have it; its connection */
	wp_request_standby_check(req);
	if (PG_NARGS() > A_ON_STANDBY_LOSS)
	{
		const char *loss = text_to_cstring(PG_GETARG_TEXT_PP(A_ON_STANDBY_LOSS));

		if (strcmp(loss, "skip") != 0 && strcmp(loss, "stop") != 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("on_standby_loss must be 'stop' or 'skip', not \"%s\"", loss),
					 errhint("'stop' ends the sweep after the step that lost its synchronous standby; 'skip' goes on without the steps that need one.")));
		req->standby_loss_skip = strcmp(loss, "skip") == 0;
	}
	if (PG_NARGS() > A_STANDBY_CONNINFO && !PG_ARGISNULL(A_STANDBY_CONNINFO))
		wp_request_standby_conninfo(req, text_to_cstring(PG_GETARG_TEXT_PP(A_STANDBY_CONNINFO)));
}

/*
 * run_sweep(setting, vals, clients, duration, workload, iops_cap, warmup,
 * repeats, settings, prewarm, label, wait, accept_data_loss, engine, script,
 * budget, checkpoint, on_standby_loss, standby_conninfo, rate, latency_limit,
 * range, search, resolution) returns bigint:
 * check everything, then start the sweep (and, with wait, wait for it).
 */
Datum
wp_run_sweep(PG_FUNCTION_ARGS)
{
	WpSweepRequest *req;
	char	   *workload;
	Datum	   *elems = NULL;
	int64		max_clients;
	bool		wait;
	WpLaunch	launch;

	wp_require_preload();
	/* PG_NARGS: a library newer than the SQL (before ALTER EXTENSION UPDATE) */
	for (int i = 0; i < Min(PG_NARGS(), A_NARGS); i++)
		if (PG_ARGISNULL(i) && i != A_VALS && i != A_IOPS_CAP && i != A_LABEL && i != A_SCRIPT &&
			i != A_BUDGET && i != A_STANDBY_CONNINFO && i != A_RATE && i != A_LATENCY_LIMIT &&
			i != A_RANGE && i != A_SEARCH && i != A_RESOLUTION && i != A_DISK && i != A_FLUSH_FLOOR)
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("only vals, iops_cap, label, script, budget, standby_conninfo, rate, latency_limit, range, search, resolution, disk and flush_floor_ms may be NULL")));

	wp_rights_login();
	req = palloc0(sizeof(WpSweepRequest));
	req->accept_data_loss = PG_GETARG_BOOL(A_ACCEPT_DATA_LOSS);
	req->prewarm = PG_GETARG_BOOL(A_PREWARM);
	wait = PG_GETARG_BOOL(A_WAIT);
	req->batch_size = 1;
	/* a library newer than the SQL (before ALTER EXTENSION UPDATE): true */
	req->checkpoint = PG_NARGS() <= A_CHECKPOINT || PG_GETARG_BOOL(A_CHECKPOINT);
	/* auto rounds decide with the caller's margin, as the plan NOTICE says */
	strlcpy(req->margin, GetConfigOption("walpressure.equivalence_margin", false, false),
			sizeof(req->margin));

	/* the cap */
	if (!PG_ARGISNULL(A_IOPS_CAP))
	{
		char		setting[WP_NAME_MAX];

		wp_copy_bounded(setting, text_to_cstring(PG_GETARG_TEXT_PP(A_SETTING)),
						WP_NAME_MAX, "the setting's name");
		wp_fold_name(setting);
		if (strcmp(setting, "iops_cap") == 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("iops_cap is the swept setting; it cannot also be passed as iops_cap")));
		req->iops_cap = PG_GETARG_INT32(A_IOPS_CAP);
		if (req->iops_cap <= 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("iops_cap must be a positive number of write IOs per second")));
	}

	/* what is swept and its values; the workload, the engine, the fixed settings */
	req->clients = PG_GETARG_INT32(A_CLIENTS);
	wp_request_setting(fcinfo, req);
	if (wp_search_asked(fcinfo))
		max_clients = wp_request_search(fcinfo, req);
	else
		max_clients = wp_request_values(fcinfo, req, &elems);
	if (strcmp(req->setting, "clients") != 0)
		max_clients = req->clients;
	wp_request_disk(fcinfo, req);
	workload = text_to_cstring(PG_GETARG_TEXT_PP(A_WORKLOAD));
	if (!wp_workload_from_name(workload, &req->workload))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("unknown workload \"%s\"", workload),
				 errhint("Workloads: %s.", wp_workload_list())));
	wp_request_engine(req, text_to_cstring(PG_GETARG_TEXT_PP(A_ENGINE)),
					  PG_ARGISNULL(A_SCRIPT) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(A_SCRIPT)),
					  &workload);
	wp_request_settings(req, PG_GETARG_JSONB_P(A_SETTINGS), workload);
	if (req->kind == WP_PARAM_CONFIG)
	{
		wp_request_configs(req, elems, req->nvals);
		for (int i = 0; i < req->nvals; i++)
			max_clients = Max(max_clients, req->ivals[i]);
	}
	wp_request_engine_limits(req);

	wp_request_rate(fcinfo, req);

	wp_request_time(fcinfo, req);
	if (req->search != WP_SEARCH_NONE)
		wp_request_search_rounds(req);
	wp_request_workers(req, max_clients);
	wp_request_server_side(req, workload);
	wp_request_label_standby(fcinfo, req);

	/* a custom statement of the in-server clients: parsed and planned now */
	if (req->engine == WP_ENGINE_BACKEND && req->workload == WP_WORKLOAD_CUSTOM)
		wp_check_custom_sql(req->sql);

	wp_restore_check_launch();
	wp_job_start_sweep(req, wait, &launch);
	wp_plan_notice(req, wait, launch.sweep_id, launch.note);
	if (wait)
		wp_job_wait_sweep(&launch);
	PG_RETURN_INT64(launch.sweep_id);
}

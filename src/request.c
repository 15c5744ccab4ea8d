/*-------------------------------------------------------------------------
 *
 * request.c
 *		run_sweep: every argument checked once, here, in the caller's
 *		session and with the caller's rights, into a WpSweepRequest that
 *		job.c hands to the coordinator as it is.
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
 *	  src/request.c
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

#include "cgroup.h"
#include "compat.h"
#include "job.h"
#include "pgbench_engine.h"
#include "replication.h"
#include "request.h"
#include "shmem.h"
#include "rights.h"
#include "worker.h"

PG_FUNCTION_INFO_V1(wp_run_sweep);

/* Bounds of what a sweep may ask, so that nothing overflows later. */
#define WP_LOAD_MAX			100000	/* clients, batch_size, iops_cap */
#define WP_PGBENCH_BATCH_MAX 1000	/* batch_size with the pgbench engine */
#define WP_ROUND_TRIP_MAX	1000000 /* us */
#define WP_DURATION_MAX_S	86400.0 /* a step's window or warm-up */
#define WP_REPEATS_MAX		1000
#define WP_AUTO_MIN_REPEATS	3		/* repeats => 'auto': the fewest rounds */
#define WP_AUTO_MAX_REPEATS	20		/* ... and the most, without a budget */
#define WP_BUDGET_MAX_S		(7 * 86400.0)
#define WP_STEPS_MAX		10000

/* Argument positions of run_sweep. */
enum
{
	A_SETTING, A_VALS, A_CLIENTS, A_DURATION, A_WORKLOAD, A_IOPS_CAP, A_WARMUP,
	A_REPEATS, A_SETTINGS, A_PREWARM, A_LABEL, A_WAIT, A_ACCEPT_DATA_LOSS, A_ENGINE,
	A_SCRIPT, A_BUDGET, A_CHECKPOINT, A_ON_STANDBY_LOSS, A_STANDBY_CONNINFO, A_NARGS
};

/*
 * Copy `src` into a field of `size` bytes, or refuse it as too long.
 */
static void
wp_copy_bounded(char *dst, const char *src, Size size, const char *what)
{
	Size		len = strlen(src);

	if (len >= size)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("%s takes %zu bytes, more than the %zu walpressure can hold",
						what, len, size - 1)));
	memcpy(dst, src, len + 1);
}

/*
 * The caller's search_path, where the load's unqualified names resolve.
 */
void
wp_caller_search_path(char *dst)
{
	wp_copy_bounded(dst, GetConfigOption("search_path", false, false),
					WP_TEXT_MAX, "search_path");
}

/*
 * A value is one line of text: no newline, carriage return or other
 * control character can reach the GUC machinery or a worker.
 */
static void
wp_check_one_value(const char *name, const char *value)
{
	for (const unsigned char *p = (const unsigned char *) value; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("invalid value for %s: it contains a control character (byte 0x%02x)",
							name, *p),
					 errhint("Give each value as one line of text, like '1000' or 'on'.")));
	if (strlen(value) >= WP_VALUE_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("a value of %s takes %zu bytes, more than the %d walpressure can hold",
						name, strlen(value), WP_VALUE_MAX - 1)));
}

/*
 * A whole number from `lo` to `hi` in text, as the load parameters take.
 */
static bool
wp_parse_whole(const char *value, int lo, int hi, int *out)
{
	const char *p = value;
	int64		n = 0;
	bool		digits = false;

	while (*p == ' ' || *p == '\t')
		p++;
	for (; *p >= '0' && *p <= '9'; p++)
	{
		digits = true;
		n = n * 10 + (*p - '0');
		if (n > hi)
			return false;
	}
	while (*p == ' ' || *p == '\t')
		p++;
	if (!digits || *p != '\0' || n < lo)
		return false;
	*out = (int) n;
	return true;
}

/* round_trip_us: microseconds from 0 to 1000000. */
static int
wp_check_round_trip(const char *value)
{
	int			v;

	if (value == NULL || !wp_parse_whole(value, 0, WP_ROUND_TRIP_MAX, &v))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid value for round_trip_us: \"%s\"", value ? value : ""),
				 errhint("It is the client's round trip per statement in microseconds, from 0 to 1000000.")));
	return v;
}

/* clients, batch_size, iops_cap: a whole number of at least 1. */
int
wp_check_load_value(const char *name, const char *value)
{
	int			v;

	if (value == NULL || !wp_parse_whole(value, 1, WP_LOAD_MAX, &v))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid value for %s: \"%s\"", name, value ? value : ""),
				 errhint("It must be a whole number from 1 to %d.", WP_LOAD_MAX)));
	return v;
}

/*
 * A column of pg_settings for `name` (compared in lower case), NULL when
 * there is no such setting.  Read as the caller: pg_settings is public.
 */
static char *
wp_pg_settings(const char *name, const char *column)
{
	char	   *result = NULL;
	int			rc;
	int			nest;

	SPI_connect();
	nest = wp_safe_path_begin();
	rc = SPI_execute_with_args(psprintf("SELECT %s FROM pg_catalog.pg_settings "
										"WHERE name OPERATOR(pg_catalog.=) pg_catalog.lower($1)", column),
							   1, (Oid[]) {TEXTOID},
							   (Datum[]) {CStringGetTextDatum(name)}, NULL, true, 1);
	if (rc != SPI_OK_SELECT)
		elog(ERROR, "could not read pg_settings: %s", SPI_result_code_string(rc));
	if (SPI_processed == 1)
	{
		char	   *v = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);

		if (v != NULL)
			result = SPI_palloc(strlen(v) + 1), strcpy(result, v);
	}
	wp_safe_path_end(nest);
	SPI_finish();
	return result;
}

/* A setting's name as PostgreSQL reads one: in lower case. */
static void
wp_fold_name(char *name)
{
	for (char *p = name; *p; p++)
		*p = pg_tolower((unsigned char) *p);
}

/*
 * The error for a parameter a sweep cannot vary (what "sweep") or fix
 * (what "settings").
 */
void
wp_refuse_setting(const char *name, const char *what)
{
	char	   *msg = strcmp(what, "sweep") == 0 ?
		psprintf("walpressure cannot sweep \"%s\"", name) :
		psprintf("walpressure cannot set \"%s\" in settings", name);
	char	   *context = wp_pg_settings(name, "context");
	char	   *folded = pstrdup(name);

	wp_fold_name(folded);
	if (strcmp(folded, name) != 0 && wp_param_kind(folded) != WP_PARAM_NONE)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s", msg),
				 errdetail("The keys of settings are settings' names in lower case."),
				 errhint("Did you mean \"%s\"?", folded)));
	if (context != NULL && strcmp(context, "postmaster") == 0)
		ereport(ERROR,
				(errcode(ERRCODE_CANT_CHANGE_RUNTIME_PARAM),
				 errmsg("%s: it takes effect only when the server restarts", msg),
				 errhint("Sweeps change settings while the server runs. Compare %s values by restarting the server with each and running the same sweep.",
						 name)));
	if (context != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s", msg),
				 errdetail("\"%s\" is a setting of this server, but not one walpressure varies: a sweep changes only settings that decide how and when the WAL is written and flushed, and the load.",
						   name),
				 errhint("Settings: %s; load: %s.",
						 wp_param_list(WP_PARAM_NONE), wp_param_list(WP_PARAM_LOAD))));
	if (wp_param_closest(name) != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s", msg),
				 errdetail("There is no setting \"%s\".", name),
				 errhint("Did you mean \"%s\"?", wp_param_closest(name))));
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("%s", msg),
			 errdetail("There is no setting \"%s\".", name),
			 errhint("Settings: %s; load: %s (round_trip_us also in settings, and batch_size and sql for the workloads that use them).",
					 wp_param_list(WP_PARAM_NONE), wp_param_list(WP_PARAM_LOAD))));
}


/*
 * What a number setting takes, for the HINT of a refused value: what a bare
 * number is in and its range, or, when it has no unit, that it takes a bare
 * number, what it counts and its range.  NULL for the others.
 */
static char *
wp_number_hint(const char *name)
{
	char	   *vartype = wp_pg_settings(name, "vartype");
	char	   *unit;
	char	   *range;

	if (vartype == NULL || (strcmp(vartype, "integer") != 0 && strcmp(vartype, "real") != 0))
		return NULL;
	unit = wp_pg_settings(name, "unit");
	range = psprintf("%s to %s", wp_pg_settings(name, "min_val"), wp_pg_settings(name, "max_val"));
	if (unit == NULL)
	{
		/* what the bare number counts, where the setting's name does not say */
		static const char *const counts[][2] = {
			{"commit_delay", "microseconds"},
			{"commit_siblings", "the number of other open transactions"},
			{"checkpoint_completion_target", "a fraction of checkpoint_timeout"},
		};

		for (int i = 0; i < lengthof(counts); i++)
			if (strcmp(name, counts[i][0]) == 0)
				return psprintf("%s is a bare number with no unit: %s, from %s.", name, counts[i][1], range);
		return psprintf("%s takes a number with no unit, from %s.", name, range);
	}
	if (strchr("0123456789", unit[0]) != NULL)	/* 8kB, 16MB: blocks, segments */
		return psprintf("%s is in units of %s when given a bare number (%s).", name, unit, range);
	return psprintf("%s is in %s when given a bare number (%s %s).", name, unit, range, unit);
}

/*
 * set_config_option as a check, its error re-raised with what a number
 * setting is in added to the HINT ('1000ms' for commit_delay, which is in
 * microseconds and takes no unit; '1 second' for wal_writer_delay, in ms).
 */
static void
wp_check_guc_value(const char *name, const char *value, GucContext context, GucSource source)
{
	MemoryContext cxt = CurrentMemoryContext;
	char	   *hint = wp_number_hint(name);	/* read now: no query after an error */

	PG_TRY();
	{
		(void) set_config_option(name, value, context, source,
								 GUC_ACTION_SET, false, ERROR, false);
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(cxt);
		edata = CopyErrorData();
		FlushErrorState();
		if (edata->sqlerrcode == ERRCODE_INVALID_PARAMETER_VALUE && hint != NULL)
			edata->hint = edata->hint ? psprintf("%s %s", edata->hint, hint) : hint;
		ReThrowError(edata);
	}
	PG_END_TRY();
}

/*
 * A session setting: the value is parsed by the GUC machinery with its own
 * errors, and the caller must be allowed to set it (rights.c).  Nothing is
 * changed.
 */
static void
wp_check_session_setting(const char *name, const char *value)
{
	wp_check_guc_value(name, value, PGC_SUSET, PGC_S_SESSION);
	wp_rights_session_setting(name, value);
}

/*
 * A server-wide setting: a value the configuration file would accept, the
 * caller's right to ALTER SYSTEM it, a source ALTER SYSTEM can override,
 * and an acknowledged risk when the value can corrupt the cluster.
 */
static void
wp_check_server_setting(const char *name, const char *value, bool accept_data_loss)
{
	char	   *source;

	wp_check_guc_value(name, value, PGC_SIGHUP, PGC_S_FILE);
	wp_rights_server_setting(name);
	source = wp_pg_settings(name, "source");
	if (source != NULL && (strcmp(source, "command line") == 0 ||
						   strcmp(source, "environment variable") == 0))
		ereport(ERROR,
				(errcode(ERRCODE_CANT_CHANGE_RUNTIME_PARAM),
				 errmsg("ALTER SYSTEM cannot change %s on this server: it is set on the %s",
						name, source),
				 errhint("Remove it from the server's command line (or environment) and restart.")));
	if (wp_data_loss(name, value) != NULL && !accept_data_loss)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s = %s is refused: a crash while it is in effect can corrupt the whole cluster",
						name, value),
				 errdetail(strcmp(name, "fsync") == 0 ?
						   "With fsync off nothing is flushed to disk: a crash of the server or the machine during the sweep can leave the database corrupted, not just lose the last commits." :
						   "With full_page_writes off a crash can leave torn pages that recovery cannot repair: data corruption."),
				 errhint("Run it on a server you can rebuild, with accept_data_loss => true; walpressure puts the setting back when the sweep ends, or at the next start after a crash.")));
}

/*
 * One value of a setting a sweep applies, swept or fixed.
 */
void
wp_check_setting_value(WpParamKind kind, const char *name, const char *value,
					   bool accept_data_loss)
{
	wp_check_one_value(name, value);
	if (kind == WP_PARAM_SERVER)
		wp_check_server_setting(name, value, accept_data_loss);
	else
		wp_check_session_setting(name, value);
}

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
 * The text of a jsonb value as jsonb_each_text gives it: a string
 * unquoted, a number or boolean as written, NULL for null, a container as
 * JSON.
 */
char *
wp_jsonb_text(JsonbValue *v)
{
	switch (v->type)
	{
		case jbvNull:
			return NULL;
		case jbvString:
			return pnstrdup(v->val.string.val, v->val.string.len);
		case jbvNumeric:
			return DatumGetCString(DirectFunctionCall1(numeric_out,
													   NumericGetDatum(v->val.numeric)));
		case jbvBool:
			return pstrdup(v->val.boolean ? "true" : "false");
		case jbvBinary:
			return JsonbToCString(NULL, v->val.binary.data, v->val.binary.len);
		default:
			elog(ERROR, "unexpected jsonb value type %d", (int) v->type);
	}
	return NULL;				/* keep compiler quiet */
}

/*
 * The settings argument: fixed settings for every step, and the load's
 * batch_size, round_trip_us and sql.  The sql's presence is checked against
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
				wp_copy_bounded(req->sql, value, WP_SQL_MAX, "the custom SQL");
		}
		else if (strcmp(key, req->setting) == 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("%s is the swept setting; it cannot also be fixed in settings", key)));
		else if (strcmp(key, "batch_size") == 0)
			req->batch_size = wp_check_load_value("batch_size", value);
		else if (strcmp(key, "round_trip_us") == 0)
			req->round_trip_us = wp_check_round_trip(value);
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

/* An interval in seconds, months counted as 30 days. */
static double
wp_interval_s(Interval *iv)
{
	return iv->time / (double) USECS_PER_SEC +
		(iv->day + iv->month * (double) DAYS_PER_MONTH) * SECS_PER_DAY;
}

/*
 * run_sweep's vals as text, whatever the caller typed: a text array
 * (ARRAY['0', '1000']), an array of numbers (ARRAY[0, 1000]), a literal
 * ('{0,1000}'), or a single value.  Each number is the text its type's output
 * function gives; the GUC machinery parses it like any other value.
 */
static void
wp_vals_as_text(FunctionCallInfo fcinfo, bool config, Datum **elems, bool **nulls, int *n)
{
	Oid			type = get_fn_expr_argtype(fcinfo->flinfo, A_VALS);
	Oid			elemtype;
	ArrayType  *arr;
	int16		typlen;
	bool		typbyval;
	char		typalign;

	if (!OidIsValid(type))
		elog(ERROR, "run_sweep could not determine the type of vals");
	if (type == UNKNOWNOID || type == TEXTOID || type == VARCHAROID)
	{
		char	   *lit = type == UNKNOWNOID ? DatumGetCString(PG_GETARG_DATUM(A_VALS)) :
			TextDatumGetCString(PG_GETARG_DATUM(A_VALS));


		/*
		 * a literal array, or one value; a settings sweep's literal JSON
		 * object ('{}', '{"fsync": "off"}') is one value
		 */
		const char *p = lit + strspn(lit, " \t\r\n");
		const char *q = p[0] == '{' ? p + 1 + strspn(p + 1, " \t\r\n") : p;

		/* its size before anything is made of it */
		if (strlen(lit) > (Size) WP_MAX_VALUES * (WP_VALUE_MAX + 3) + 2)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("vals takes %zu bytes; a sweep takes at most %d values of at most %d bytes each",
							strlen(lit), WP_MAX_VALUES, WP_VALUE_MAX - 1)));

		/* an object's first key ("fsync"), not an array's first element ("{...") */
		if (config && p[0] == '{' && (q[0] == '}' || (q[0] == '"' && q[1] != '{' && q[1] != '\\')))
			arr = construct_array((Datum[]) {CStringGetTextDatum(lit)}, 1, TEXTOID, -1, false, TYPALIGN_INT);
		else if (p[0] == '{')
		{
			Oid			in;
			Oid			ioparam;

			/* array_in keeps state in its FmgrInfo: called through one */
			getTypeInputInfo(TEXTARRAYOID, &in, &ioparam);
			arr = DatumGetArrayTypeP(OidInputFunctionCall(in, lit, ioparam, -1));
		}
		else
			arr = construct_array((Datum[]) {CStringGetTextDatum(lit)}, 1, TEXTOID, -1, false, TYPALIGN_INT);
	}
	else if (OidIsValid(get_element_type(type)))
		arr = PG_GETARG_ARRAYTYPE_P(A_VALS);
	else if (type == INT2OID || type == INT4OID || type == INT8OID || type == NUMERICOID ||
			 type == FLOAT4OID || type == FLOAT8OID || type == BOOLOID)
	{
		get_typlenbyvalalign(type, &typlen, &typbyval, &typalign);
		arr = construct_array((Datum[]) {PG_GETARG_DATUM(A_VALS)}, 1, type, typlen, typbyval, typalign);
	}
	else
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("vals must be an array of values, not %s", format_type_be(type)),
				 errhint("For example ARRAY['0', '1000'], ARRAY[0, 1000] or '{0,1000}'.")));
	if (ARR_NDIM(arr) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("vals must be a one-dimensional array")));
	/* how many, before any is taken apart or turned into text */
	if (ArrayGetNItems(ARR_NDIM(arr), ARR_DIMS(arr)) > WP_MAX_VALUES)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("vals has %d values; a sweep takes at most %d",
						ArrayGetNItems(ARR_NDIM(arr), ARR_DIMS(arr)), WP_MAX_VALUES)));
	elemtype = ARR_ELEMTYPE(arr);
	get_typlenbyvalalign(elemtype, &typlen, &typbyval, &typalign);
	deconstruct_array(arr, elemtype, typlen, typbyval, typalign, elems, nulls, n);
	if (elemtype != TEXTOID)
	{
		Oid			out;
		bool		varlena;

		if (elemtype != VARCHAROID && elemtype != INT2OID && elemtype != INT4OID &&
			elemtype != INT8OID && elemtype != NUMERICOID && elemtype != FLOAT4OID &&
			elemtype != FLOAT8OID && elemtype != BOOLOID && elemtype != NAMEOID &&
			elemtype != UNKNOWNOID && elemtype != JSONBOID && elemtype != JSONOID)
			ereport(ERROR,
					(errcode(ERRCODE_DATATYPE_MISMATCH),
					 errmsg("vals must hold text, numbers, booleans or JSON objects, not %s", format_type_be(elemtype)),
					 errhint("For example ARRAY['0', '1000'] or ARRAY[0, 1000].")));
		getTypeOutputInfo(elemtype, &out, &varlena);
		for (int i = 0; i < *n; i++)
			if (!(*nulls)[i])
				(*elems)[i] = CStringGetTextDatum(OidOutputFunctionCall(out, (*elems)[i]));
	}
}

/*
 * A duration argument in seconds: an interval ('60 s', interval '1 min')
 * or a number of seconds (20, 2.5).
 */
static double
wp_seconds_arg(FunctionCallInfo fcinfo, int arg, const char *name)
{
	Oid			type = get_fn_expr_argtype(fcinfo->flinfo, arg);
	Datum		d = PG_GETARG_DATUM(arg);

	switch (type)
	{
		case INTERVALOID:
			return wp_interval_s(DatumGetIntervalP(d));
		case UNKNOWNOID:
		case TEXTOID:
		case VARCHAROID:
			{
				char	   *lit = type == UNKNOWNOID ? DatumGetCString(d) : TextDatumGetCString(d);
				char	   *end;
				double		secs = strtod(lit, &end);

				/* a bare number is seconds, as for the numeric types */
				if (end != lit && end[strspn(end, " \t")] == '\0')
					return secs;
				return wp_interval_s(DatumGetIntervalP(DirectFunctionCall3(interval_in,
																		   CStringGetDatum(lit),
																		   ObjectIdGetDatum(InvalidOid),
																		   Int32GetDatum(-1))));
			}
		case INT2OID:
			return DatumGetInt16(d);
		case INT4OID:
			return DatumGetInt32(d);
		case INT8OID:
			return (double) DatumGetInt64(d);
		case FLOAT4OID:
			return DatumGetFloat4(d);
		case FLOAT8OID:
			return DatumGetFloat8(d);
		case NUMERICOID:
			return DatumGetFloat8(DirectFunctionCall1(numeric_float8, d));
		default:
			ereport(ERROR,
					(errcode(ERRCODE_DATATYPE_MISMATCH),
					 errmsg("%s must be an interval or a number of seconds, not %s", name,
							format_type_be(type)),
					 errhint("For example %s => '60 s' or %s => 60.", name, name)));
	}
	return 0;					/* not reached */
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

/* A span of time as a DBA reads it: "2.5 s", "45 s", "7 min 30 s", "2 h 5 min". */
static char *
wp_span(double s)
{
	long		t = lrint(s);

	if (s < 60)
		return s == floor(s) ? psprintf("%ld s", t) : psprintf("%.1f s", s);
	if (t < 3600)
		return t % 60 ? psprintf("%ld min %ld s", t / 60, t % 60) : psprintf("%ld min", t / 60);
	return psprintf("%ld h %ld min", t / 3600, (t % 3600) / 60);
}

/*
 * As sweep `id` starts (job.c, once the coordinator has recorded it): one
 * NOTICE with its plan (steps, the time its load takes, how to stop it),
 * and a WARNING for what makes its intervals too wide to decide anything.
 */
void
wp_plan_notice(const WpSweepRequest *req, bool wait, int64 id)
{
	int			steps = req->nvals * req->repeats;

	char	   *more = NULL;

	/* repeats => 'auto' or a budget: the rounds to come */
	if (req->auto_repeats)
		more = psprintf("Then one more round at a time until a value beats the baseline (or the baseline every other value) beyond its 95%% interval, or every interval is within 2%% of its mean, or %s.",
						req->budget_s > 0 ?
						psprintf("the next round would pass the budget of %s (at most %d rounds)",
								 wp_span(req->budget_s), req->max_repeats) :
						psprintf("%d rounds have run", req->max_repeats));
	ereport(NOTICE,
			(errmsg("sweep " INT64_FORMAT " of %s: %d value%s x %d %s%s = %d step%s (each %s, %s of warm-up, %s measured): %s of load at least",
					id, req->setting, req->nvals, req->nvals > 1 ? "s" : "", req->repeats,
					req->auto_repeats ? "round" : "repeat", req->repeats > 1 ? "s" : "",
					steps, steps > 1 ? "s" : "",
					req->checkpoint ? "a CHECKPOINT" : "without a CHECKPOINT", wp_span(req->warmup_s),
					wp_span(req->duration_s), wp_span(steps * (req->warmup_s + req->duration_s))),
			 more ? errdetail("%s", more) : 0,
			 wait ? errhint("Cancel it with Ctrl-C here, or with SELECT walpressure.cancel_sweep(" INT64_FORMAT "); from another session. walpressure.progress shows each step.", id) :
			 errhint("Cancel it with SELECT walpressure.cancel_sweep(" INT64_FORMAT "); walpressure.progress shows each step.", id)));
	if (req->repeats == 2)
		ereport(WARNING,
				(errmsg("2 repeats give very wide intervals: a 95%% interval from two values is 12.7 standard errors wide on each side"),
				 errdetail("Student's t with 1 degree of freedom is 12.7; with 3 repeats it is 4.3, with 5 it is 2.8."),
				 errhint("Use repeats => 3 or more.")));
	if (req->repeats == 1 && req->duration_s < 10)
		ereport(WARNING,
				(errmsg("a %s window gives each value's interval only %d per-second samples",
						wp_span(req->duration_s), (int) req->duration_s),
				 errdetail("With one repeat the 95%% interval comes from the window's per-second tps; under 2 samples there is none."),
				 errhint("Use duration => '30 s' or more, or repeats => 3.")));
}

/*
 * repeats and budget: a number of rounds, or repeats => 'auto' and/or a
 * budget (an interval or seconds), which add rounds until the answer is
 * clear (coordinator.c).  With a budget, repeats is the fewest rounds (at
 * least 3, so that the repeats give an interval).
 */
static void
wp_repeats_arg(FunctionCallInfo fcinfo, WpSweepRequest *req)
{
	Oid			type = get_fn_expr_argtype(fcinfo->flinfo, A_REPEATS);
	Datum		d = PG_GETARG_DATUM(A_REPEATS);
	int64		n = 0;
	bool		is_auto = false;

	switch (type)
	{
		case INT2OID:
			n = DatumGetInt16(d);
			break;
		case INT4OID:
			n = DatumGetInt32(d);
			break;
		case INT8OID:
			n = DatumGetInt64(d);
			break;
		case UNKNOWNOID:
		case TEXTOID:
		case VARCHAROID:
			{
				char	   *lit = type == UNKNOWNOID ? DatumGetCString(d) : TextDatumGetCString(d);
				int			i;

				if (pg_strcasecmp(lit, "auto") == 0)
					is_auto = true;
				else if (parse_int(lit, &i, 0, NULL))
					n = i;
				else
					ereport(ERROR,
							(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
							 errmsg("repeats must be a number of rounds or 'auto', not \"%s\"", lit),
							 errhint("repeats => 'auto' adds interleaved rounds until the answer is clear; budget => '10 min' bounds their time.")));
				break;
			}
		default:
			ereport(ERROR,
					(errcode(ERRCODE_DATATYPE_MISMATCH),
					 errmsg("repeats must be a number of rounds or 'auto', not %s", format_type_be(type))));
	}
	if (PG_NARGS() > A_BUDGET && !PG_ARGISNULL(A_BUDGET))
	{
		req->budget_s = wp_seconds_arg(fcinfo, A_BUDGET, "budget");
		if (!(req->budget_s > 0) || req->budget_s > WP_BUDGET_MAX_S)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("budget must be positive and at most 7 days")));
		req->auto_repeats = true;
	}
	if (is_auto)
	{
		req->auto_repeats = true;
		n = WP_AUTO_MIN_REPEATS;
	}
	else if (req->auto_repeats)
		n = Max(n, WP_AUTO_MIN_REPEATS);
	if (n < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("repeats must be at least 1")));
	if (n > WP_REPEATS_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("repeats must be at most %d", WP_REPEATS_MAX)));
	req->repeats = (int) n;
}

/*
 * run_sweep(setting, vals, clients, duration, workload, iops_cap, warmup,
 * repeats, settings, prewarm, label, wait, accept_data_loss) returns bigint:
 * check everything, then hand the request to job.c.
 */
Datum
wp_run_sweep(PG_FUNCTION_ARGS)
{
	WpSweepRequest *req;
	char	   *workload;
	Datum	   *elems;
	bool	   *elem_nulls;
	int			nelems;
	int64		max_clients;
	int64		max_clients_workers;
	int			free_workers;
	bool		wait;

	wp_require_preload();
	/* PG_NARGS: a library newer than the SQL (before ALTER EXTENSION UPDATE) */
	for (int i = 0; i < Min(PG_NARGS(), A_NARGS); i++)
		if (PG_ARGISNULL(i) && i != A_IOPS_CAP && i != A_LABEL && i != A_SCRIPT && i != A_BUDGET &&
			i != A_STANDBY_CONNINFO)
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("only iops_cap, label, script, budget and standby_conninfo may be NULL")));

	wp_rights_login();
	req = palloc0(sizeof(WpSweepRequest));
	req->accept_data_loss = PG_GETARG_BOOL(A_ACCEPT_DATA_LOSS);
	req->prewarm = PG_GETARG_BOOL(A_PREWARM);
	wait = PG_GETARG_BOOL(A_WAIT);
	req->batch_size = 1;
	wp_copy_bounded(req->setting, text_to_cstring(PG_GETARG_TEXT_PP(A_SETTING)),
					WP_NAME_MAX, "the setting's name");
	wp_fold_name(req->setting);
	req->kind = strcmp(req->setting, "settings") == 0 ? WP_PARAM_CONFIG :
		wp_param_kind(req->setting);
	/* a library newer than the SQL (before ALTER EXTENSION UPDATE): true */
	req->checkpoint = PG_NARGS() <= A_CHECKPOINT || PG_GETARG_BOOL(A_CHECKPOINT);

	/* the cap */
	if (!PG_ARGISNULL(A_IOPS_CAP) && strcmp(req->setting, "iops_cap") == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("iops_cap is the swept setting; it cannot also be passed as iops_cap")));
	if (!PG_ARGISNULL(A_IOPS_CAP))
	{
		req->iops_cap = PG_GETARG_INT32(A_IOPS_CAP);
		if (req->iops_cap <= 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("iops_cap must be a positive number of write IOs per second")));
	}

	/* what is swept, and its values */
	if (req->kind == WP_PARAM_NONE)
		wp_refuse_setting(req->setting, "sweep");
	wp_vals_as_text(fcinfo, req->kind == WP_PARAM_CONFIG, &elems, &elem_nulls, &nelems);
	if (nelems == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("vals is empty: give at least one value of %s", req->setting),
				 req->kind == WP_PARAM_CONFIG ?
				 errhint("For example vals => ARRAY['{}', '{\"synchronous_commit\": \"off\"}'].") : 0));
	if (nelems > WP_MAX_VALUES)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("vals has %d values; a sweep takes at most %d", nelems, WP_MAX_VALUES)));
	req->clients = PG_GETARG_INT32(A_CLIENTS);
	max_clients = strcmp(req->setting, "clients") == 0 ? 0 : req->clients;
	for (int i = 0; i < nelems; i++)
	{
		char	   *v;

		if (elem_nulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("vals holds a NULL")));
		v = TextDatumGetCString(elems[i]);
		if (req->kind == WP_PARAM_CONFIG)
			continue;			/* after the fixed settings: wp_request_configs */
		wp_check_one_value(req->setting, v);
		if (strcmp(req->setting, "round_trip_us") == 0)
			req->ivals[i] = wp_check_round_trip(v);
		else if (req->kind == WP_PARAM_LOAD)
		{
			req->ivals[i] = wp_check_load_value(req->setting, v);
			if (strcmp(req->setting, "clients") == 0)
				max_clients = Max(max_clients, req->ivals[i]);
		}
		else
			wp_check_setting_value(req->kind, req->setting, v, req->accept_data_loss);
		strlcpy(req->vals[i], v, WP_VALUE_MAX);
	}
	req->nvals = nelems;

	/* the workload and the fixed settings */
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
		wp_request_configs(req, elems, nelems);
		for (int i = 0; i < nelems; i++)
			max_clients = Max(max_clients, req->ivals[i]);
	}
	if (req->engine == WP_ENGINE_PGBENCH &&
		(strcmp(req->setting, "round_trip_us") == 0 || req->round_trip_us > 0))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("round_trip_us is for the backend engine"),
				 errdetail("It emulates the round trip of a client the in-server clients do not have; pgbench's clients have real ones."),
				 errhint("Run the sweep with engine => 'backend', or leave round_trip_us out.")));
	/* pgbench parses the batch, one INSERT per row, before it starts */
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

	/* the load and its time */
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
	if ((int64) req->repeats * req->nvals > WP_STEPS_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("%d values x %d repeats is more steps than the %d a sweep may have",
						req->nvals, req->repeats, WP_STEPS_MAX)));
	if (req->auto_repeats)
		req->max_repeats = Max(req->repeats,
							   Min(req->budget_s > 0 ? WP_REPEATS_MAX : WP_AUTO_MAX_REPEATS,
								   WP_STEPS_MAX / req->nvals));
	/* pgbench's clients are connections: the coordinator is the one worker */
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
	else
		max_clients_workers = max_clients;
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

	/* server-wide settings take effect with a reload: the caller's right */
	if (wp_request_server_names(req) != NIL || wp_request_has_server_setting(req))
		wp_rights_reload();

	/* the disk: the caller's right to cap it, then the cgroup's state */
	if (req->iops_cap > 0 || strcmp(req->setting, "iops_cap") == 0)
	{
		wp_rights_cap();
		(void) wp_cgroup_check();
		(void) wp_wal_device(NULL);
	}

	/* each step starts with a CHECKPOINT: the caller's right too */
	if (req->checkpoint)
		wp_rights_checkpoint();
	/* the data, prewarmed as the caller */
	if (req->prewarm && req->workload != WP_WORKLOAD_CUSTOM)
		wp_rights_prewarm();
	if (req->workload != WP_WORKLOAD_CUSTOM)
		req->scale = wp_pgbench_scale(req, workload);
	wp_caller_search_path(req->search_path);
	/* the pgbench engine: its binary, the connection, the script, first */
	if (req->engine == WP_ENGINE_PGBENCH)
		wp_pgbench_preflight(req);
	if (!PG_ARGISNULL(A_LABEL))
	{
		wp_copy_bounded(req->label, text_to_cstring(PG_GETARG_TEXT_PP(A_LABEL)),
						WP_TEXT_MAX, "label");
		/* it is printed by report() and drawn in plot()'s SVG */
		for (const unsigned char *p = (const unsigned char *) req->label; *p; p++)
			if (*p < 0x20 || *p == 0x7f)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("label contains a control character (byte 0x%02x)", *p),
						 errhint("Give the label as one line of text.")));
		req->has_label = true;
	}

	/* the standbys: the steps that wait for one have it; its connection */
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

	/* a custom statement of the in-server clients: parsed and planned now */
	if (req->engine == WP_ENGINE_BACKEND && req->workload == WP_WORKLOAD_CUSTOM)
		wp_check_custom_sql(req->sql);

	PG_RETURN_INT64(wp_job_run_sweep(req, wait));
}

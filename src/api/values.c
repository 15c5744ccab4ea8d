/*-------------------------------------------------------------------------
 *
 * values.c
 *		One value as the caller gives it, checked once: one line of text,
 *		parsed by the GUC machinery as one value of its setting (its error
 *		with what a bare number of that setting is in), the caller's right
 *		to set it (sweep/rights.c), a source ALTER SYSTEM can override, an
 *		acknowledged risk for a value that can corrupt the cluster; a load
 *		parameter's whole number; a setting a sweep cannot vary refused
 *		with the names it can.
 *
 * IDENTIFICATION
 *	  src/api/values.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "executor/spi.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/resowner.h"
#include "utils/jsonb.h"

#include "api/arguments.h"
#include "api/rate_request.h"
#include "api/values.h"
#include "common/text_check.h"
#include "common/safe_spi.h"
#include "sweep/policy.h"
#include "sweep/rights.h"

/*
 * Copy `src` into a field of `size` bytes, or refuse it as too long.
 */
void
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
void
wp_check_one_value(const char *name, const char *value)
{
	int32		c = wp_text_unsafe(value, strlen(value), false);

	if (c >= 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid value for %s: it contains a control or formatting character (U+%04X)",
						name, (unsigned) c),
				 errhint("Give each value as one line of visible text, like '1000' or 'on'.")));
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
int
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

/* disk: a disk model's name (paced, throttle); its number into ivals. */
int
wp_check_disk_value(const char *value)
{
	WpDiskModel model;

	if (value == NULL || !wp_disk_model_from_name(value, &model))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid value for disk: \"%s\"", value ? value : ""),
				 errhint("disk is paced (every write IO and flush costs its share of the cap, in arrival order: a volume) or throttle (the cgroup's blk-throttle: a 100 ms slice's IOs at once, then a stall).")));
	return (int) model;
}

/*
 * A column of pg_settings for `name` (compared in lower case), NULL when
 * there is no such setting.  Read as the caller: pg_settings is public.
 */
char *
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
void
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
			 errhint("Settings: %s; load: %s (round_trip_us also in settings, and batch_size, protocol and sql for the workloads and engines that use them).",
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

/*
 * Why `value` is not one value of `name` (a setting a sweep varies or fixes,
 * or a key of a configuration), or NULL when it is one: for a document
 * import() checks, which was made elsewhere, so no right is asked and
 * nothing is changed; the GUC machinery reads a setting's value, the load's
 * parameters and pgbench's protocol are read as run_sweep reads them.
 */
char *
wp_value_refusal(const char *name, const char *value)
{
	MemoryContext cxt = CurrentMemoryContext;
	ResourceOwner owner = CurrentResourceOwner;
	WpParamKind kind = wp_param_kind(name);
	char	   *why = NULL;

	/* in a subtransaction: a check hook's error leaves nothing behind */
	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(cxt);
	PG_TRY();
	{
		wp_check_one_value(name, value);
		if (strcmp(name, "round_trip_us") == 0)
			(void) wp_check_round_trip(value);
		else if (strcmp(name, "rate") == 0)
			(void) wp_check_rate_value(value);
		else if (strcmp(name, "protocol") == 0)
			(void) wp_check_protocol(value);
		else if (strcmp(name, "disk") == 0)
			(void) wp_check_disk_value(value);
		else if (kind == WP_PARAM_LOAD || strcmp(name, "batch_size") == 0)
			(void) wp_check_load_value(name, value);
		else if (kind == WP_PARAM_SERVER)
			(void) set_config_option(name, value, PGC_SIGHUP, PGC_S_FILE,
									 GUC_ACTION_SET, false, ERROR, false);
		else if (kind == WP_PARAM_SESSION)
			(void) set_config_option(name, value, PGC_SUSET, PGC_S_SESSION,
									 GUC_ACTION_SET, false, ERROR, false);
		else
			why = psprintf("\"%s\" is not a setting a sweep varies", name);
		ReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(cxt);
		CurrentResourceOwner = owner;
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(cxt);
		edata = CopyErrorData();
		FlushErrorState();
		RollbackAndReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(cxt);
		CurrentResourceOwner = owner;
		why = edata->message;
	}
	PG_END_TRY();
	return why;
}

/*
 * A value of a setting as the server holds it: a bare number of an
 * integer setting that is not a whole number in decimals ('0.5', '1e3',
 * '0x10' of commit_delay) is what the GUC machinery makes of it (0, 1000,
 * 16), said in a NOTICE; anything else as given (a unit, a word, a real).
 * Called after wp_check_setting_value has accepted it.
 */
char *
wp_value_as_held(const char *name, const char *value)
{
	const char *p = value;
	char	   *vartype;
	int			n;

	while (*p == ' ' || *p == '+' || *p == '-')
		p++;
	while (*p >= '0' && *p <= '9')
		p++;
	if (*p == '\0' && p > value)
		return pstrdup(value);	/* a whole number in decimals: as given */
	vartype = wp_pg_settings(name, "vartype");
	if (vartype == NULL || strcmp(vartype, "integer") != 0 ||
		strpbrk(value, "abcdfghijklmnopqrstuvwyzABCDFGHIJKLMNOPQRSTUVWYZ") != NULL ||
		!parse_int(value, &n, 0, NULL))
		return pstrdup(value);	/* a unit, a word (x and e are a number's) */
	ereport(NOTICE,
			(errmsg("%s = %s is %d to the server (an integer setting): the sweep records it as %d",
					name, value, n, n)));
	return psprintf("%d", n);
}

/*
 * One value of the swept setting (not a configuration), checked: one line,
 * then a load parameter's whole number (into *ival; 0 for a setting), or a
 * setting's value as the GUC machinery and the caller's rights take it.
 * Returns it as the server holds it (wp_value_as_held).
 */
char *
wp_check_swept_value(const WpSweepRequest *req, const char *v, int *ival)
{
	*ival = 0;
	wp_check_one_value(req->setting, v);
	if (strcmp(req->setting, "round_trip_us") == 0)
		*ival = wp_check_round_trip(v);
	else if (strcmp(req->setting, "disk") == 0)
		*ival = wp_check_disk_value(v);
	else if (req->kind == WP_PARAM_LOAD)
		*ival = wp_check_load_value(req->setting, v);
	else
	{
		wp_check_setting_value(req->kind, req->setting, v, req->accept_data_loss);
		return wp_value_as_held(req->setting, v);
	}
	return pstrdup(v);
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


/* pgbench's --protocol: simple, extended or prepared. */
const char *
wp_check_protocol(const char *value)
{
	if (value == NULL || (strcmp(value, "simple") != 0 && strcmp(value, "extended") != 0 &&
						  strcmp(value, "prepared") != 0))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("protocol must be simple, extended or prepared, not %s",
						value ? value : "null"),
				 errhint("It is pgbench's --protocol: how the clients send their statements.")));
	return value;
}

/*
 * The swept setting's values: each checked as one value of it (a
 * configuration's keys after the fixed settings, wp_request_configs).
 * Returns the most clients a value runs, 0 when it is not the clients.
 */
int64
wp_request_values(FunctionCallInfo fcinfo, WpSweepRequest *req, Datum **elems)
{
	bool	   *elem_nulls;
	int			nelems;
	int64		max_clients = 0;

	if (PG_ARGISNULL(A_VALS))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("give the values to run (vals) or a range to search (range)"),
				 errhint("For example vals => ARRAY[0, 1000], or range => '[0, 2000]'.")));
	wp_vals_as_text(fcinfo, req->kind == WP_PARAM_CONFIG, elems, &elem_nulls, &nelems);
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
	for (int i = 0; i < nelems; i++)
	{
		char	   *v;

		if (elem_nulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("vals holds a NULL")));
		if (req->kind == WP_PARAM_CONFIG)
			continue;			/* after the fixed settings: wp_request_configs */
		v = TextDatumGetCString((*elems)[i]);
		if (strcmp(req->setting, "rate") == 0)
		{
			wp_check_one_value(req->setting, v);
			req->rates[i] = wp_check_rate_value(v);
			strlcpy(req->vals[i], v, WP_VALUE_MAX);
			continue;
		}
		strlcpy(req->vals[i], wp_check_swept_value(req, v, &req->ivals[i]), WP_VALUE_MAX);
		if (strcmp(req->setting, "clients") == 0)
			max_clients = Max(max_clients, req->ivals[i]);
	}
	req->nvals = nelems;
	return max_clients;
}

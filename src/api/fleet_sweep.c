/*-------------------------------------------------------------------------
 *
 * fleet_sweep.c
 *		The sweep document of fleet_run(): run_sweep's arguments by name, as
 *		JSON, checked here and turned into the one call each server runs.
 *		The call is built from a closed list of run_sweep's argument names,
 *		each value a quoted literal of the type that argument takes: no text
 *		of the caller's becomes SQL.
 *
 * IDENTIFICATION
 *	  src/api/fleet_sweep.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <errno.h>

#include "fmgr.h"
#include "lib/stringinfo.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/numeric.h"
#include "utils/timestamp.h"

#include "api/fleet_sweep.h"
#include "sweep/request.h"

/* What a run_sweep argument takes, in the sweep document. */
typedef enum WpFleetArg
{
	FA_TEXT,					/* a string */
	FA_INT,						/* a whole number */
	FA_BOOL,					/* true or false */
	FA_OBJECT,					/* a JSON object (settings) */
	FA_SECONDS,					/* an interval ('30 s') or seconds (30) */
	FA_REPEATS,					/* a whole number or 'auto' */
	FA_VALS,					/* an array of values */
	FA_REAL,					/* a number (rate, latency_limit) */
	FA_NUMTEXT					/* a number, or text with a unit (resolution) */
} WpFleetArg;

/*
 * run_sweep's arguments a fleet passes on, in run_sweep's order.  wait and
 * standby_conninfo are not among them (wp_fleet_statement says why).
 */
static const struct
{
	const char *name;
	WpFleetArg	kind;
}			wp_fleet_args[] =
{
	{"setting", FA_TEXT},
	{"vals", FA_VALS},
	{"clients", FA_INT},
	{"duration", FA_SECONDS},
	{"workload", FA_TEXT},
	{"iops_cap", FA_INT},
	{"warmup", FA_SECONDS},
	{"repeats", FA_REPEATS},
	{"settings", FA_OBJECT},
	{"prewarm", FA_BOOL},
	{"label", FA_TEXT},
	{"accept_data_loss", FA_BOOL},
	{"engine", FA_TEXT},
	{"script", FA_TEXT},
	{"budget", FA_SECONDS},
	{"checkpoint", FA_BOOL},
	{"on_standby_loss", FA_TEXT},
	{"rate", FA_REAL},
	{"latency_limit", FA_REAL},
	{"range", FA_TEXT},
	{"search", FA_TEXT},
	{"resolution", FA_NUMTEXT},
	{"disk", FA_TEXT},
	{"flush_floor_ms", FA_REAL},
};

/* A JSON number's text, as numeric_out writes it. */
static char *
wp_fleet_number(JsonbValue *v)
{
	return DatumGetCString(DirectFunctionCall1(numeric_out, NumericGetDatum(v->val.numeric)));
}

/* Refuse the sweep document's `key`: `why`, with a hint. */
static void
wp_fleet_refuse(const char *key, const char *why)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("sweep's \"%s\" %s", key, why),
			 errhint("sweep holds run_sweep's arguments by name, for example '{\"setting\": \"commit_delay\", \"vals\": [0, 1000], \"clients\": 8, \"duration\": \"30 s\", \"repeats\": 3}'.")));
}

/* A JSON number's text, refused unless it is a whole number of int range. */
static char *
wp_fleet_int(const char *key, JsonbValue *v)
{
	char	   *text;
	char	   *end;
	long		x;

	if (v->type != jbvNumeric)
		wp_fleet_refuse(key, "must be a whole number");
	text = wp_fleet_number(v);
	errno = 0;
	x = strtol(text, &end, 10);
	if (*end != '\0' || errno != 0 || x < PG_INT32_MIN || x > PG_INT32_MAX)
		wp_fleet_refuse(key, "must be a whole number");
	return text;
}

/* One of vals as the text run_sweep takes (a configuration: its JSON). */
static char *
wp_fleet_val(JsonbValue *e)
{
	switch (e->type)
	{
		case jbvString:
			return pnstrdup(e->val.string.val, e->val.string.len);
		case jbvNumeric:
			return wp_fleet_number(e);
		case jbvBool:
			return pstrdup(e->val.boolean ? "true" : "false");
		case jbvBinary:
			if (JsonContainerIsObject(e->val.binary.data))
				return JsonbToCString(NULL, e->val.binary.data, e->val.binary.len);
			break;
		default:
			break;
	}
	wp_fleet_refuse("vals", "must hold values: strings, numbers, or JSON objects (a settings sweep's configurations)");
	return NULL;				/* not reached */
}

/* The literal of run_sweep's argument `a` for its value `v` in the document. */
static char *
wp_fleet_literal(int a, JsonbValue *v)
{
	const char *key = wp_fleet_args[a].name;
	char	   *lit = NULL;
	char	   *s;

	switch (wp_fleet_args[a].kind)
	{
		case FA_TEXT:
			if (v->type != jbvString)
				wp_fleet_refuse(key, "must be a string");
			s = pnstrdup(v->val.string.val, v->val.string.len);
			lit = psprintf("%s::text", quote_literal_cstr(s));
			break;
		case FA_INT:
			lit = psprintf("'%s'::integer", wp_fleet_int(key, v));
			break;
		case FA_BOOL:
			if (v->type != jbvBool)
				wp_fleet_refuse(key, "must be true or false");
			lit = pstrdup(v->val.boolean ? "true" : "false");
			break;
		case FA_OBJECT:
			if (v->type != jbvBinary || !JsonContainerIsObject(v->val.binary.data))
				wp_fleet_refuse(key, "must be a JSON object");
			s = JsonbToCString(NULL, v->val.binary.data, v->val.binary.len);
			lit = psprintf("%s::jsonb", quote_literal_cstr(s));
			break;
		case FA_SECONDS:
			if (v->type == jbvNumeric)
				lit = psprintf("'%s'::numeric", wp_fleet_number(v));
			else if (v->type == jbvString)
			{
				s = pnstrdup(v->val.string.val, v->val.string.len);
				/* an interval here, so that a typo is one error, not one per server */
				(void) DirectFunctionCall3(interval_in, CStringGetDatum(s),
										   ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
				lit = psprintf("%s::interval", quote_literal_cstr(s));
			}
			else
				wp_fleet_refuse(key, "must be an interval ('30 s') or a number of seconds");
			break;
		case FA_REAL:
			if (v->type != jbvNumeric)
				wp_fleet_refuse(key, "must be a number");
			lit = psprintf("'%s'::float8", wp_fleet_number(v));
			break;
		case FA_NUMTEXT:
			if (v->type == jbvNumeric)
				lit = psprintf("'%s'::numeric", wp_fleet_number(v));
			else if (v->type == jbvString)
				lit = psprintf("%s::text", quote_literal_cstr(pnstrdup(v->val.string.val, v->val.string.len)));
			else
				wp_fleet_refuse(key, "must be a number or text with a unit");
			break;
		case FA_REPEATS:
			if (v->type == jbvString && v->val.string.len == 4 &&
				strncmp(v->val.string.val, "auto", 4) == 0)
				lit = pstrdup("'auto'::text");
			else if (v->type == jbvNumeric)
				lit = psprintf("'%s'::integer", wp_fleet_int(key, v));
			else
				wp_fleet_refuse(key, "must be a number of rounds or \"auto\"");
			break;
		case FA_VALS:
			{
				JsonbIterator *it;
				JsonbValue	e;
				JsonbIteratorToken tok;
				StringInfoData arr;
				int			n = 0;

				if (v->type != jbvBinary || !JsonContainerIsArray(v->val.binary.data))
					wp_fleet_refuse(key, "must be an array of values");
				initStringInfo(&arr);
				appendStringInfoString(&arr, "ARRAY[");
				it = JsonbIteratorInit(v->val.binary.data);
				while ((tok = JsonbIteratorNext(&it, &e, true)) != WJB_DONE)
				{
					if (tok != WJB_ELEM)
						continue;
					if (++n > WP_MAX_VALUES)
						wp_fleet_refuse(key, psprintf("has more than %d values, the most a sweep takes", WP_MAX_VALUES));
					appendStringInfo(&arr, "%s%s", n > 1 ? ", " : "", quote_literal_cstr(wp_fleet_val(&e)));
				}
				if (n == 0)
					wp_fleet_refuse(key, "is empty");
				appendStringInfoString(&arr, "]::text[]");
				lit = arr.data;
				break;
			}
	}
	return lit;
}

/* Every key of the document must be one of run_sweep's arguments it passes. */
static void
wp_fleet_check_keys(Jsonb *sweep)
{
	JsonbIterator *it = JsonbIteratorInit(&sweep->root);
	JsonbValue	e;
	JsonbIteratorToken tok;

	while ((tok = JsonbIteratorNext(&it, &e, true)) != WJB_DONE)
	{
		char	   *key;
		bool		known = false;

		if (tok != WJB_KEY)
			continue;
		key = pnstrdup(e.val.string.val, e.val.string.len);
		if (strcmp(key, "wait") == 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("sweep cannot set \"wait\""),
					 errdetail("Each server's sweep waits for its end in the session the fleet opened for it, so that a sweep never outlives the central session that started it.")));
		if (strcmp(key, "standby_conninfo") == 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("sweep cannot set \"standby_conninfo\""),
					 errdetail("A standby's connection string (and its password) is one server's, not the fleet's."),
					 errhint("Run that server's sweep there, with run_sweep(standby_conninfo => ...).")));
		for (int a = 0; a < lengthof(wp_fleet_args); a++)
			if (strcmp(key, wp_fleet_args[a].name) == 0)
				known = true;
		if (!known)
		{
			StringInfoData names;

			initStringInfo(&names);
			for (int a = 0; a < lengthof(wp_fleet_args); a++)
				appendStringInfo(&names, "%s%s", a ? ", " : "", wp_fleet_args[a].name);
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("sweep's \"%s\" is not an argument of run_sweep", key),
					 errhint("sweep takes %s.", names.data)));
		}
	}
}

/*
 * The call each server runs: SELECT walpressure.run_sweep(name => value,
 * ..., wait => true), from the sweep document, each name one of run_sweep's
 * (wp_fleet_args), each value a quoted literal of its type.  The document's
 * shape is checked here; what the values mean, each server's run_sweep
 * checks as the role that runs it, with its own GUC machinery.  Without a
 * label the sweeps are labelled "fleet run N".
 */
char *
wp_fleet_statement(Jsonb *sweep, int64 run_id)
{
	StringInfoData sql;
	char	   *lits[lengthof(wp_fleet_args)] = {0};

	if (!JB_ROOT_IS_OBJECT(sweep) || JB_ROOT_IS_SCALAR(sweep))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("sweep must be a JSON object of run_sweep's arguments"),
				 errhint("For example '{\"setting\": \"commit_delay\", \"vals\": [0, 1000], \"duration\": \"30 s\"}'.")));

	for (int a = 0; a < lengthof(wp_fleet_args); a++)
	{
		const char *key = wp_fleet_args[a].name;
		JsonbValue *v = getKeyJsonValueFromContainer(&sweep->root, key, strlen(key), NULL);

		if (v != NULL && v->type != jbvNull)
			lits[a] = wp_fleet_literal(a, v);
	}
	wp_fleet_check_keys(sweep);

	if (lits[0] == NULL)
		wp_fleet_refuse("setting", "is missing");
	if (lits[1] == NULL)
	{
		bool		range = false;

		for (int a = 0; a < lengthof(wp_fleet_args); a++)
			if (strcmp(wp_fleet_args[a].name, "range") == 0 && lits[a] != NULL)
				range = true;
		if (!range)
			wp_fleet_refuse("vals", "is missing (give vals, or range for a search)");
	}

	initStringInfo(&sql);
	appendStringInfoString(&sql, "SELECT walpressure.run_sweep(");
	for (int a = 0; a < lengthof(wp_fleet_args); a++)
	{
		if (strcmp(wp_fleet_args[a].name, "label") == 0 && lits[a] == NULL)
			lits[a] = psprintf("'fleet run " INT64_FORMAT "'::text", run_id);
		if (lits[a] != NULL)
			appendStringInfo(&sql, "%s => %s, ", wp_fleet_args[a].name, lits[a]);
	}
	appendStringInfoString(&sql, "wait => true)");
	return sql.data;
}

/*-------------------------------------------------------------------------
 *
 * import_check.c
 *		import() takes only what export() writes: a document checked here,
 *		in C, before any of it reaches a table.
 *
 * An imported sweep is read by every view and function of the extension
 * (results, best and its ALTER SYSTEM line, report, plot), by roles that
 * did not make the document.  Its shape (export()'s object, every text one
 * line, every number one a step can measure, no list longer than a sweep
 * makes) import_shape.c checks first.  Here, its sweep: its setting and the
 * keys of its settings must be ones a sweep can vary, every value must be
 * one of its setting as the GUC machinery reads it (so within its limits),
 * every step must measure one of the sweep's values, every time must lie
 * between 2000 and tomorrow, and the lists must be no longer than one sweep
 * makes (its steps, a window's samples each, the statements and standbys a
 * step records): what a reading of it costs is a real sweep's.  The first
 * thing that is not so is named in the error, with its path in the
 * document.
 *
 * What can be derived is not taken from the document: _import() sets each
 * step's value from the sweep's values by its position and the labels of
 * the data it can lose from its settings (sweep/policy.c), so that no
 * document can make best() advise a value never run or a setting that
 * loses data as if it did not.
 *
 * IDENTIFICATION
 *	  src/api/import_check.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/xact.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/datetime.h"
#include "utils/jsonb.h"
#include "utils/memutils.h"
#include "utils/numeric.h"
#include "utils/timestamp.h"

#include "api/arguments.h"
#include "api/import_check.h"
#include "api/import_shape.h"
#include "api/values.h"
#include "common/text_check.h"
#include "sweep/policy.h"
#include "sweep/request.h"
#include "system/pgss.h"
#include "system/walsenders.h"

/* The most entries of each list besides the steps: its samples at their most */
#define WP_IMPORT_MAX_SAMPLES	1000000

/* The member `key` of object `obj`, or NULL. */
static JsonbValue *
wp_member(JsonbContainer *obj, const char *key)
{
	return getKeyJsonValueFromContainer(obj, key, strlen(key), NULL);
}

/* A setting a sweep may vary or fix (or a key of settings it takes). */
static void
wp_check_setting_name(const char *path, const char *name, bool config_key)
{
	if (wp_param_kind(name) != WP_PARAM_NONE)
		return;
	if (config_key && (strcmp(name, "batch_size") == 0 || strcmp(name, "round_trip_us") == 0 ||
					   strcmp(name, "protocol") == 0 || strcmp(name, "sql") == 0))
		return;
	wp_import_refuse(path, psprintf("names \"%s\", which is not a setting a sweep varies", name));
}

/*
 * A value of `setting` (or a key of a configuration): one the GUC machinery
 * reads as one value of it, or one the load takes (api/values.c).
 */
static void
wp_check_value(const char *path, const char *setting, const char *value)
{
	char	   *why;

	if (value == NULL)
		wp_import_refuse(path, "is not a value");
	if (strcmp(setting, "sql") == 0)
		return;					/* the custom SQL: lines, checked as text */
	why = wp_value_refusal(setting, value);
	if (why != NULL)
		wp_import_refuse(path, psprintf("is not a value of %s (%s)", setting, why));
}

/*
 * A configuration (a value of a settings sweep, or the fixed settings): a
 * JSON object of settings a sweep takes, each to one of its values.
 */
static void
wp_check_config(const char *path, JsonbContainer *cfg)
{
	JsonbIterator *it;
	JsonbValue	e;
	JsonbIteratorToken tok;
	char	   *key = NULL;

	if (!JsonContainerIsObject(cfg))
		wp_import_refuse(path, "is not a JSON object of settings");
	it = JsonbIteratorInit(cfg);
	while ((tok = JsonbIteratorNext(&it, &e, true)) != WJB_DONE)
		if (tok == WJB_KEY)
		{
			key = pnstrdup(e.val.string.val, e.val.string.len);
			wp_check_setting_name(path, key, true);
		}
		else if (tok == WJB_VALUE)
		{
			if (e.type == jbvBinary)
				wp_import_refuse(path, "sets a setting to something that is not one value");
			wp_check_value(psprintf("%s.%s", path, key), key, wp_jsonb_text(&e));
		}
}

/* A whole number from lo to hi: a position in a sweep's values. */
static bool
wp_position_in(Numeric n, int lo, int hi)
{
	double		p = DatumGetFloat8(DirectFunctionCall1(numeric_float8_no_overflow, NumericGetDatum(n)));

	return p >= lo && p <= hi && p == floor(p);
}

/* Member `key` of `obj` (what it is in words): absent, null, or a whole number from lo to hi. */
static void
wp_check_position(JsonbContainer *obj, const char *path, const char *key, const char *what,
				  int lo, int hi, bool required)
{
	JsonbValue *v = wp_member(obj, key);

	if (v == NULL || v->type == jbvNull)
	{
		if (required)
			wp_import_refuse(psprintf("%s.%s", path, key), "is missing");
		return;
	}
	if (v->type != jbvNumeric || !wp_position_in(v->val.numeric, lo, hi))
		wp_import_refuse(psprintf("%s.%s", path, key),
				  psprintf("is not %s (a whole number from %d to %d)", what, lo, hi));
}

/* Member "disk" of `obj`: absent, null, or a disk model walpressure has. */
static void
wp_check_disk(JsonbContainer *obj, const char *path)
{
	JsonbValue *v = wp_member(obj, "disk");
	WpDiskModel model;

	if (v == NULL || v->type == jbvNull)
		return;
	if (v->type != jbvString ||
		!wp_disk_model_from_name(pnstrdup(v->val.string.val, v->val.string.len), &model))
		wp_import_refuse(psprintf("%s.disk", path), "is not a disk walpressure models (paced, throttle)");
}

/* Member `key` of `obj`: absent, null, or a time between 2000 and tomorrow. */
static void
wp_check_time(JsonbContainer *obj, const char *path, const char *key)
{
	JsonbValue *v = wp_member(obj, key);
	TimestampTz t;

	if (v == NULL || v->type == jbvNull)
		return;
	if (v->type != jbvString)
		wp_import_refuse(psprintf("%s.%s", path, key), "is not a time");
	t = DatumGetTimestampTz(DirectFunctionCall3(timestamptz_in,
												CStringGetDatum(pnstrdup(v->val.string.val, v->val.string.len)),
												ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1)));
	/* 0 is 2000-01-01, PostgreSQL's epoch */
	if (TIMESTAMP_NOT_FINITE(t) || t < 0 ||
		t > GetCurrentTransactionStartTimestamp() + USECS_PER_DAY)
		wp_import_refuse(psprintf("%s.%s", path, key), "is not a time between 2000 and tomorrow");
}

/* The length of the array member `key` of the document (0 when absent). */
static int64
wp_array_length(Jsonb *doc, const char *key)
{
	JsonbValue *v = wp_member(&doc->root, key);

	if (v == NULL || v->type != jbvBinary || !JsonContainerIsArray(v->val.binary.data))
		return 0;
	return JsonContainerSize(v->val.binary.data);
}

/*
 * The sweep's values: strings a sweep takes, each a value of its setting
 * (a settings sweep's, a configuration).  Returns how many.
 */
static int
wp_check_vals(JsonbContainer *sweep, const char *setting)
{
	JsonbValue *v = wp_member(sweep, "vals");
	JsonbIterator *it;
	JsonbValue	e;
	JsonbIteratorToken tok;
	int			nvals = 0;

	if (v == NULL || v->type != jbvBinary || !JsonContainerIsArray(v->val.binary.data))
		wp_import_refuse("$.sweep.vals", "is not an array");
	it = JsonbIteratorInit(v->val.binary.data);
	while ((tok = JsonbIteratorNext(&it, &e, true)) != WJB_DONE)
	{
		char	   *path;
		char	   *text;

		if (tok != WJB_ELEM)
			continue;
		path = psprintf("$.sweep.vals[%d]", nvals);
		if (++nvals > WP_MAX_VALUES)
			wp_import_refuse("$.sweep.vals", "has more values than a sweep takes");
		if (e.type != jbvString || e.val.string.len >= WP_VALUE_MAX)
			wp_import_refuse(path, "is not a value a sweep takes");
		text = pnstrdup(e.val.string.val, e.val.string.len);
		if (strcmp(setting, "settings") == 0)
		{
			Jsonb	   *cfg = DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(text)));

			if (!JB_ROOT_IS_OBJECT(cfg) || JB_ROOT_IS_SCALAR(cfg))
				wp_import_refuse(path, "is not a JSON object of settings");
			wp_check_config(path, &cfg->root);
		}
		else
			wp_check_value(path, setting, text);
	}
	if (nvals == 0)
		wp_import_refuse("$.sweep.vals", "is empty");
	return nvals;
}

/*
 * The steps: each measured one of the values, in a round a sweep can have,
 * no more of them than a sweep has.  Returns how many.
 */
static int64
wp_check_steps(Jsonb *doc, int nvals)
{
	JsonbValue *v = wp_member(&doc->root, "steps");
	JsonbIterator *it;
	JsonbValue	e;
	JsonbIteratorToken tok;
	int64		n = 0;

	if (v == NULL || v->type != jbvBinary)
		return 0;
	if (JsonContainerSize(v->val.binary.data) > WP_STEPS_MAX)
		wp_import_refuse("$.steps", psprintf("has more steps than a sweep makes (%d)", WP_STEPS_MAX));
	it = JsonbIteratorInit(v->val.binary.data);
	while ((tok = JsonbIteratorNext(&it, &e, true)) != WJB_DONE)
	{
		char	   *path;

		if (tok != WJB_ELEM)
			continue;
		path = psprintf("$.steps[" INT64_FORMAT "]", n++);
		if (e.type != jbvBinary || !JsonContainerIsObject(e.val.binary.data))
			wp_import_refuse(path, "is not a step");
		wp_check_position(e.val.binary.data, path, "value_pos", "the position of one of the values", 1, nvals, true);
		wp_check_position(e.val.binary.data, path, "step", "a step of a sweep", 1, WP_STEPS_MAX, true);
		wp_check_position(e.val.binary.data, path, "repeat", "a round of a sweep", 1, WP_STEPS_MAX, true);
		wp_check_time(e.val.binary.data, path, "started_at");
		wp_check_disk(e.val.binary.data, path);
	}
	return n;
}

/*
 * The lists besides the steps: no longer than the steps of one sweep make
 * (a sample a second of each window, WP_STMT_TOP statements and
 * WP_STANDBYS_MAX standbys a step, a round of a search a step).
 */
static void
wp_check_sizes(Jsonb *doc, JsonbContainer *sweep, int64 nsteps)
{
	JsonbValue *d = wp_member(sweep, "duration");
	double		window_s = WP_DURATION_MAX_S;
	int64		samples;

	if (d != NULL && d->type == jbvString)
	{
		Interval   *iv = DatumGetIntervalP(DirectFunctionCall3(interval_in,
															   CStringGetDatum(pnstrdup(d->val.string.val, d->val.string.len)),
															   ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1)));

		window_s = iv->time / (double) USECS_PER_SEC + (iv->day + iv->month * 30.0) * SECS_PER_DAY;
	}
	if (!(window_s > 0 && window_s <= WP_DURATION_MAX_S))
		wp_import_refuse("$.sweep.duration", "is not a window a sweep takes");
	samples = (int64) Min((double) WP_IMPORT_MAX_SAMPLES, nsteps * (ceil(window_s) + 2));
	if (wp_array_length(doc, "step_samples") > samples)
		wp_import_refuse("$.step_samples", psprintf("has more samples than its steps make (" INT64_FORMAT ")", samples));
	if (wp_array_length(doc, "step_statements") > nsteps * WP_STMT_TOP)
		wp_import_refuse("$.step_statements", "has more statements than its steps record");
	if (wp_array_length(doc, "step_replication") > nsteps * WP_STANDBYS_MAX)
		wp_import_refuse("$.step_replication", "has more standbys than its steps record");
	if (wp_array_length(doc, "search_rounds") > Max(nsteps, 1))
		wp_import_refuse("$.search_rounds", "has more rounds than its steps make");
}

/*
 * Refuse `doc` unless it is what export() writes (see the file's comment).
 */
void
wp_import_check(Jsonb *doc)
{
	JsonbValue *sweep;
	JsonbContainer *s;
	JsonbValue *v;
	char	   *setting;
	int			nvals;
	int64		nsteps;
	bool		is_search;

	wp_import_scalars_check(doc);

	sweep = wp_member(&doc->root, "sweep");
	if (sweep == NULL || sweep->type != jbvBinary || !JsonContainerIsObject(sweep->val.binary.data))
		wp_import_refuse("$.sweep", "is missing");
	s = sweep->val.binary.data;

	/* what it varied, and its values */
	v = wp_member(s, "setting");
	if (v == NULL || v->type != jbvString)
		wp_import_refuse("$.sweep.setting", "is missing");
	setting = pnstrdup(v->val.string.val, v->val.string.len);
	if (strcmp(setting, "settings") != 0)
		wp_check_setting_name("$.sweep.setting", setting, false);
	nvals = wp_check_vals(s, setting);
	v = wp_member(s, "current_value");
	if (v != NULL && v->type != jbvNull && strcmp(setting, "settings") != 0)
		wp_check_value("$.sweep.current_value", setting, wp_jsonb_text(v));
	wp_check_position(s, "$.sweep", "current_pos", "the position of one of the sweep's values", 1, nvals, false);

	/* a search's kind: the one walpressure runs */
	v = wp_member(s, "search");
	if (v != NULL && v->type != jbvNull &&
		(v->type != jbvString || v->val.string.len != 6 || strncmp(v->val.string.val, "golden", 6) != 0))
		wp_import_refuse("$.sweep.search", "is not a search walpressure runs (golden)");
	/* what a search found: one of its values, which best starts from */
	is_search = v != NULL && v->type != jbvNull;
	v = wp_member(s, "search_found");
	if (v != NULL && v->type != jbvNull && !is_search)
		wp_import_refuse("$.sweep.search_found", "is set on a sweep that is not a search");
	wp_check_position(s, "$.sweep", "search_found", "the position of one of the sweep's values", 1, nvals, false);

	/* the settings it fixed */
	v = wp_member(s, "settings");
	if (v != NULL && v->type == jbvBinary)
		wp_check_config("$.sweep.settings", v->val.binary.data);
	else if (v != NULL && v->type != jbvNull)
		wp_import_refuse("$.sweep.settings", "is not a JSON object");

	/* when: the times delete_sweeps and the readings go by */
	wp_check_time(s, "$.sweep", "started_at");
	wp_check_time(s, "$.sweep", "finished_at");
	wp_check_time(&doc->root, "$", "exported_at");
	wp_check_disk(s, "$.sweep");

	/* each step measured one of the values; the lists a sweep's size */
	nsteps = wp_check_steps(doc, nvals);
	wp_check_sizes(doc, s, nsteps);
}

/*-------------------------------------------------------------------------
 *
 * import_check.c
 *		import() takes only what export() writes: a document checked here,
 *		in C, before any of it reaches a table.
 *
 * An imported sweep is read by every view and function of the extension
 * (results, best and its ALTER SYSTEM line, report, plot), by roles that
 * did not make the document.  So its setting and the keys of its settings
 * must be ones a sweep can vary, every text that is one line in export()'s
 * output must be one line here (no control character reaches a terminal or
 * the SVG), every number must be one a step can measure (finite, bounded,
 * counts not negative, a statement's calls above zero), and the lists must
 * be no longer than a sweep makes.  The first thing that is not so is
 * named in the error, with its path in the document.
 *
 * IDENTIFICATION
 *	  src/api/import_check.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/numeric.h"

#include "api/import_check.h"
#include "common/text_check.h"
#include "sweep/policy.h"
#include "sweep/request.h"

/* The most of a number: bytes (WAL, images) up to 1e15, anything else 1e12. */
#define WP_IMPORT_MAX_BYTES		1e15
#define WP_IMPORT_MAX_FIGURE	1e12
/* The most steps and samples a sweep can have (request.c's bounds). */
#define WP_IMPORT_MAX_ROWS		(10000 * 86400)

/* Text fields that hold lines (SQL, a script, an error, pgbench's words). */
static const char *const wp_multiline_keys[] = {
	"query", "script", "sql", "error", "discarded", "server_settings_restored"
};

/* Counts a step cannot have below zero (and calls, not even zero). */
static const char *const wp_count_keys[] = {
	"transactions", "retries", "commits", "leaders", "wal_fsyncs", "wal_bytes",
	"wal_records", "wal_fpi", "wal_buffers_full", "checkpoints_timed",
	"checkpoints_requested", "fpi_bytes", "buffers_checkpoint", "buffers_clean",
	"buffers_backend", "buffers_backend_fsync", "tps", "seconds", "server_seconds",
	"rows", "total_ms", "mean_ms", "stddev_ms", "samples", "clients", "repeats",
	"steps_total", "steps_done", "rate", "rate_achieved", "transactions_late",
	"transactions_skipped", "latency_limit_ms", "f0_ms", "round", "pair", "commit_avg_ms",
	"commit_p99_ms"
};

static void
wp_refuse(const char *path, const char *why)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("this is not a sweep walpressure.export() made: %s %s", path, why),
			 errhint("Give import() the JSON document SELECT walpressure.export(sweep_id); returned on the other server, unchanged.")));
}

static bool
wp_key_in(const char *key, const char *const *keys, int n)
{
	for (int i = 0; i < n; i++)
		if (strcmp(key, keys[i]) == 0)
			return true;
	return false;
}

/* A string of the document: one line unless its key holds lines. */
static void
wp_check_text(const char *path, const char *key, const char *s, int len)
{
	bool		lines = key != NULL && wp_key_in(key, wp_multiline_keys, lengthof(wp_multiline_keys));

	int32		c;

	if (len > WP_SQL_MAX)
		wp_refuse(path, "is longer than any text a sweep records");
	c = wp_text_unsafe(s, len, lines);
	if (c >= 0)
		wp_refuse(path, psprintf("holds a control or formatting character (U+%04X)", (unsigned) c));
}

/* A number of the document: finite, bounded, a count not negative. */
static void
wp_check_number(const char *path, const char *key, Numeric n)
{
	double		x;
	int			klen = key ? strlen(key) : 0;
	bool		bytes = klen >= 5 && strstr(key, "bytes") != NULL;

	if (numeric_is_nan(n))
		wp_refuse(path, "is not a number");
	x = DatumGetFloat8(DirectFunctionCall1(numeric_float8_no_overflow, NumericGetDatum(n)));
	/* a query id is pg_stat_statements' 64-bit hash: any whole bigint */
	if (key != NULL && strcmp(key, "queryid") == 0)
	{
		if (!isfinite(x) || x != floor(x) || fabs(x) > 9223372036854775808.0)
			wp_refuse(path, "is not a query id (a whole number in bigint's range)");
		return;
	}
	if (!isfinite(x) || fabs(x) > (bytes ? WP_IMPORT_MAX_BYTES : WP_IMPORT_MAX_FIGURE))
		wp_refuse(path, "is beyond any figure a step measures");
	if (key != NULL && x < 0 && wp_key_in(key, wp_count_keys, lengthof(wp_count_keys)))
		wp_refuse(path, "is negative");
	if (key != NULL && strcmp(key, "calls") == 0 && !(x > 0))
		wp_refuse(path, "is not a positive number of calls");
}

/*
 * Every scalar of `v` and below: texts and numbers as above, containers no
 * longer than a sweep makes.
 */
static void
wp_check_tree(JsonbValue *v, const char *path, const char *key)
{
	switch (v->type)
	{
		case jbvString:
			wp_check_text(path, key, v->val.string.val, v->val.string.len);
			break;
		case jbvNumeric:
			wp_check_number(path, key, v->val.numeric);
			break;
		case jbvBinary:
			{
				JsonbIterator *it = JsonbIteratorInit(v->val.binary.data);
				JsonbValue	e;
				JsonbIteratorToken tok;
				char	   *k = NULL;
				int64		n = 0;

				while ((tok = JsonbIteratorNext(&it, &e, true)) != WJB_DONE)
				{
					if (tok == WJB_KEY)
					{
						wp_check_text(path, NULL, e.val.string.val, e.val.string.len);
						k = pnstrdup(e.val.string.val, e.val.string.len);
						continue;
					}
					if (tok == WJB_ELEM || tok == WJB_VALUE)
					{
						if (++n > WP_IMPORT_MAX_ROWS)
							wp_refuse(path, "has more entries than a sweep makes");
						wp_check_tree(&e, tok == WJB_VALUE ? psprintf("%s.%s", path, k) :
									  psprintf("%s[" INT64_FORMAT "]", path, n - 1),
									  tok == WJB_VALUE ? k : key);
					}
				}
				break;
			}
		default:
			break;
	}
}

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
	wp_refuse(path, psprintf("names \"%s\", which is not a setting a sweep varies", name));
}

/* The keys of a JSON object given as text (a configuration's value). */
static void
wp_check_config_keys(const char *path, Jsonb *cfg)
{
	JsonbIterator *it;
	JsonbValue	e;
	JsonbIteratorToken tok;

	if (!JB_ROOT_IS_OBJECT(cfg) || JB_ROOT_IS_SCALAR(cfg))
		wp_refuse(path, "is not a JSON object of settings");
	it = JsonbIteratorInit(&cfg->root);
	while ((tok = JsonbIteratorNext(&it, &e, true)) != WJB_DONE)
		if (tok == WJB_KEY)
			wp_check_setting_name(path, pnstrdup(e.val.string.val, e.val.string.len), true);
		else if (tok == WJB_VALUE && e.type == jbvBinary)
			wp_refuse(path, "sets a setting to something that is not one value");
}

/* A whole number from lo to hi: a position in a sweep's values. */
static bool
wp_position_in(Numeric n, int lo, int hi)
{
	double		p = DatumGetFloat8(DirectFunctionCall1(numeric_float8_no_overflow, NumericGetDatum(n)));

	return p >= lo && p <= hi && p == floor(p);
}

/*
 * Refuse `doc` unless it is what export() writes (see the file's comment).
 */
void
wp_import_check(Jsonb *doc)
{
	JsonbValue	root;
	JsonbValue *sweep;
	JsonbValue *v;
	char	   *setting;
	int			nvals = 0;
	bool		is_search;

	if (!JB_ROOT_IS_OBJECT(doc) || JB_ROOT_IS_SCALAR(doc))
		wp_refuse("the document", "is not a JSON object");
	root.type = jbvBinary;
	root.val.binary.data = &doc->root;
	root.val.binary.len = VARSIZE(doc) - VARHDRSZ;
	wp_check_tree(&root, "$", NULL);

	sweep = wp_member(&doc->root, "sweep");
	if (sweep == NULL || sweep->type != jbvBinary || !JsonContainerIsObject(sweep->val.binary.data))
		wp_refuse("$.sweep", "is missing");

	/* what it varied, and its values */
	v = wp_member(sweep->val.binary.data, "setting");
	if (v == NULL || v->type != jbvString)
		wp_refuse("$.sweep.setting", "is missing");
	setting = pnstrdup(v->val.string.val, v->val.string.len);
	if (strcmp(setting, "settings") != 0)
		wp_check_setting_name("$.sweep.setting", setting, false);
	v = wp_member(sweep->val.binary.data, "vals");
	if (v == NULL || v->type != jbvBinary || !JsonContainerIsArray(v->val.binary.data))
		wp_refuse("$.sweep.vals", "is not an array");
	{
		JsonbIterator *it = JsonbIteratorInit(v->val.binary.data);
		JsonbValue	e;
		JsonbIteratorToken tok;

		while ((tok = JsonbIteratorNext(&it, &e, true)) != WJB_DONE)
		{
			char	   *path;

			if (tok != WJB_ELEM)
				continue;
			path = psprintf("$.sweep.vals[%d]", nvals);
			if (++nvals > WP_MAX_VALUES)
				wp_refuse("$.sweep.vals", "has more values than a sweep takes");
			if (e.type != jbvString || e.val.string.len >= WP_VALUE_MAX)
				wp_refuse(path, "is not a value a sweep takes");
			if (strcmp(setting, "settings") == 0)
			{
				char	   *text = pnstrdup(e.val.string.val, e.val.string.len);
				Jsonb	   *cfg = DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(text)));

				wp_check_config_keys(path, cfg);
			}
		}
	}
	if (nvals == 0)
		wp_refuse("$.sweep.vals", "is empty");

	/* a search's kind: the one walpressure runs */
	v = wp_member(sweep->val.binary.data, "search");
	if (v != NULL && v->type != jbvNull &&
		(v->type != jbvString || v->val.string.len != 6 || strncmp(v->val.string.val, "golden", 6) != 0))
		wp_refuse("$.sweep.search", "is not a search walpressure runs (golden)");
	/* what a search found: one of its values, which best starts from */
	is_search = v != NULL && v->type != jbvNull;
	v = wp_member(sweep->val.binary.data, "search_found");
	if (v != NULL && v->type != jbvNull && !is_search)
		wp_refuse("$.sweep.search_found", "is set on a sweep that is not a search");
	if (v != NULL && v->type != jbvNull &&
		(v->type != jbvNumeric || !wp_position_in(v->val.numeric, 1, nvals)))
		wp_refuse("$.sweep.search_found", "is not the position of one of the sweep's values");

	/* the settings it fixed */
	v = wp_member(sweep->val.binary.data, "settings");
	if (v != NULL && v->type == jbvBinary)
	{
		JsonbIterator *it = JsonbIteratorInit(v->val.binary.data);
		JsonbValue	e;
		JsonbIteratorToken tok;

		if (!JsonContainerIsObject(v->val.binary.data))
			wp_refuse("$.sweep.settings", "is not a JSON object");
		while ((tok = JsonbIteratorNext(&it, &e, true)) != WJB_DONE)
			if (tok == WJB_KEY)
				wp_check_setting_name("$.sweep.settings",
									  pnstrdup(e.val.string.val, e.val.string.len), true);
	}
	else if (v != NULL && v->type != jbvNull)
		wp_refuse("$.sweep.settings", "is not a JSON object");

	/* each step measured one of the values */
	v = wp_member(&doc->root, "steps");
	if (v != NULL && v->type == jbvBinary)
	{
		JsonbIterator *it = JsonbIteratorInit(v->val.binary.data);
		JsonbValue	e;
		JsonbIteratorToken tok;
		int			n = 0;

		while ((tok = JsonbIteratorNext(&it, &e, true)) != WJB_DONE)
		{
			JsonbValue *pos;

			if (tok != WJB_ELEM)
				continue;
			if (e.type != jbvBinary || !JsonContainerIsObject(e.val.binary.data))
				wp_refuse(psprintf("$.steps[%d]", n), "is not a step");
			pos = wp_member(e.val.binary.data, "value_pos");
			if (pos == NULL || pos->type != jbvNumeric)
				wp_refuse(psprintf("$.steps[%d].value_pos", n), "is missing");
			if (!wp_position_in(pos->val.numeric, 0, nvals))
				wp_refuse(psprintf("$.steps[%d].value_pos", n), "is not the position of one of the values");
			n++;
		}
	}
}

/*-------------------------------------------------------------------------
 *
 * import_shape.c
 *		The imported document's shape, checked before its sweep is: is it
 *		an object export() makes, and is every text and number in it one a
 *		step can record?
 *
 * Every string is one line unless its key holds lines (no control or
 * formatting character reaches a terminal or the SVG) and no longer than a
 * sweep records; a member under a number column's name is a JSON number;
 * every number is finite and bounded both ways (zero or between 1e-9
 * (1e-100 for a spread) and 1e12 in size, 1e15 for bytes), a count not
 * negative; no list is longer than a sweep makes.  What the sweep holds
 * (its setting, values, steps, times) import_check.c checks after.  The
 * first thing that is not so is named in the error, with its path.
 *
 * IDENTIFICATION
 *	  src/api/import_shape.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/memutils.h"
#include "utils/numeric.h"

#include "api/import_shape.h"
#include "api/values.h"
#include "common/text_check.h"
#include "sweep/policy.h"
#include "sweep/request.h"

/*
 * Is `doc` a document export() made: an object of its format and version (1,
 * as ->> reads it: the number or the string), its sweep an object, its steps
 * and samples arrays?  What they hold the checks below and wp_import_check check after.
 */
bool
wp_import_is_export(Jsonb *doc)
{
	static const char *const keys[] = {"format", "format_version", "sweep", "steps", "step_samples"};
	JsonbValue *v[lengthof(keys)];
	char	   *format;
	char	   *version;

	if (!JB_ROOT_IS_OBJECT(doc) || JB_ROOT_IS_SCALAR(doc))
		return false;
	for (int i = 0; i < lengthof(keys); i++)
		if ((v[i] = getKeyJsonValueFromContainer(&doc->root, keys[i], strlen(keys[i]), NULL)) == NULL)
			return false;
	for (int i = 2; i < lengthof(keys); i++)
		if (v[i]->type != jbvBinary ||
			(i == 2 ? !JsonContainerIsObject(v[i]->val.binary.data) : !JsonContainerIsArray(v[i]->val.binary.data)))
			return false;
	format = wp_jsonb_text(v[0]);
	version = wp_jsonb_text(v[1]);
	return format != NULL && strcmp(format, "walpressure sweep") == 0 && version != NULL && strcmp(version, "1") == 0;
}

/* The most of a number: bytes (WAL, images) up to 1e15, anything else 1e12. */
#define WP_IMPORT_MAX_BYTES		1e15
#define WP_IMPORT_MAX_FIGURE	1e12
/* The least of a number that is not zero: 1e-9 (a nanosecond in seconds). */
#define WP_IMPORT_MIN_FIGURE	1e-9
/*
 * The least of a spread (a key ending in stddev_ms) that is not zero: the
 * standard deviation of equal times is their rounding error, far below 1e-9
 * (pg_stat_statements computes it from a running variance), and 1e-100 is
 * still one whose square and whose ratio to any figure a reading takes
 * stay within float8.
 */
#define WP_IMPORT_MIN_SPREAD	1e-100
/* The most entries of one list: a sweep's samples at their most */
#define WP_IMPORT_MAX_ROWS		1000000

/* Text fields that hold lines (SQL, a script, an error, pgbench's words). */
static const char *const wp_multiline_keys[] = {
	"query", "script", "sql", "error", "discarded", "server_settings_restored"
};

/* the objects of a server's settings: bounded as a server's are */
static const char *const wp_settings_keys[] = {
	"server", "settings", "server_settings", "server_originals", "origin"
};

#define WP_IMPORT_MAX_SETTINGS	2000

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

void
wp_import_refuse(const char *path, const char *why)
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

/*
 * The names of the result tables' number columns (read from the catalog as
 * the check starts): a member of the document under one of them must be a
 * JSON number, never a string that the column's input function would take
 * unchecked ('1e308', 'NaN', 'Infinity', '-5').
 */
static List *wp_number_keys = NIL;

static void
wp_read_number_keys(void)
{
	wp_number_keys = NIL;
	if (SPI_execute("SELECT DISTINCT a.attname::text FROM pg_catalog.pg_attribute a "
					"JOIN pg_catalog.pg_class c ON c.oid = a.attrelid "
					"JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace "
					"WHERE n.nspname = 'walpressure' AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped "
					"AND a.atttypid IN ('pg_catalog.int2'::pg_catalog.regtype, 'pg_catalog.int4'::pg_catalog.regtype, "
					"'pg_catalog.int8'::pg_catalog.regtype, 'pg_catalog.float4'::pg_catalog.regtype, "
					"'pg_catalog.float8'::pg_catalog.regtype, 'pg_catalog.numeric'::pg_catalog.regtype)",
					true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read the result tables' columns");
	for (uint64 i = 0; i < SPI_processed; i++)
		wp_number_keys = lappend(wp_number_keys,
								 pstrdup(SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1)));
}

static bool
wp_number_key(const char *key)
{
	ListCell   *lc;

	if (key == NULL)
		return false;
	foreach(lc, wp_number_keys)
		if (strcmp(key, (const char *) lfirst(lc)) == 0)
			return true;
	return false;
}

/* A string of the document: one line unless its key holds lines. */
static void
wp_check_text(const char *path, const char *key, const char *s, int len)
{
	bool		lines = key != NULL && wp_key_in(key, wp_multiline_keys, lengthof(wp_multiline_keys));

	int32		c;

	if (wp_number_key(key))
		wp_import_refuse(path, "is a number written as text (a figure is a JSON number)");

	if (len > WP_SQL_MAX)
		wp_import_refuse(path, "is longer than any text a sweep records");
	c = wp_text_unsafe(s, len, lines);
	if (c >= 0)
		wp_import_refuse(path, psprintf("holds a control or formatting character (U+%04X)", (unsigned) c));
}

/* A number of the document: finite, bounded, a count not negative. */
static void
wp_check_number(const char *path, const char *key, Numeric n)
{
	double		x;
	int			klen = key ? strlen(key) : 0;
	bool		bytes = klen >= 5 && strstr(key, "bytes") != NULL;
	bool		spread = klen >= 9 && strcmp(key + klen - 9, "stddev_ms") == 0;

	if (numeric_is_nan(n))
		wp_import_refuse(path, "is not a number");
	x = DatumGetFloat8(DirectFunctionCall1(numeric_float8_no_overflow, NumericGetDatum(n)));
	/* a query id is pg_stat_statements' 64-bit hash: any whole bigint */
	if (key != NULL && strcmp(key, "queryid") == 0)
	{
		if (!isfinite(x) || x != floor(x) || fabs(x) > 9223372036854775808.0)
			wp_import_refuse(path, "is not a query id (a whole number in bigint's range)");
		return;
	}
	if (!isfinite(x) || fabs(x) > (bytes ? WP_IMPORT_MAX_BYTES : WP_IMPORT_MAX_FIGURE))
		wp_import_refuse(path, "is beyond any figure a step measures");
	if (spread && x != 0 && fabs(x) < WP_IMPORT_MIN_SPREAD)
		wp_import_refuse(path, "is smaller than any spread a step measures (zero or at least 1e-100)");
	if (!spread && x != 0 && fabs(x) < WP_IMPORT_MIN_FIGURE)
		wp_import_refuse(path, "is smaller than any figure a step measures (zero or at least 1e-9)");
	if (key != NULL && x < 0 && wp_key_in(key, wp_count_keys, lengthof(wp_count_keys)))
		wp_import_refuse(path, "is negative");
	/* a time (every key ending in _ms or _us) is never negative */
	if (x < 0 && klen > 3 && (strcmp(key + klen - 3, "_ms") == 0 || strcmp(key + klen - 3, "_us") == 0))
		wp_import_refuse(path, "is a negative time");
	if (key != NULL && strcmp(key, "calls") == 0 && !(x > 0))
		wp_import_refuse(path, "is not a positive number of calls");
	/* what run_sweep takes: a cap of 1 IOPS or more, 1 client or more, a floor of 0 to its most */
	if (key != NULL && (strcmp(key, "iops_cap") == 0 || strcmp(key, "clients") == 0) && x < 1)
		wp_import_refuse(path, "is below 1, which run_sweep never records");
	if (key != NULL && strcmp(key, "flush_floor_ms") == 0 && (x < 0 || x > WP_FLUSH_FLOOR_MAX_MS))
		wp_import_refuse(path, psprintf("is not a flush floor run_sweep takes (0 to %.0f ms)", WP_FLUSH_FLOOR_MAX_MS));
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
				/* a server's settings are a few hundred, a sweep's rows many more */
				int64		most = key != NULL && wp_key_in(key, wp_settings_keys, lengthof(wp_settings_keys))
					? WP_IMPORT_MAX_SETTINGS : WP_IMPORT_MAX_ROWS;
				/* each entry's key and path live as long as its check: memory stays the document's */
				MemoryContext entry_cxt = AllocSetContextCreate(CurrentMemoryContext, "walpressure import check",
																ALLOCSET_SMALL_SIZES);
				MemoryContext old_cxt = MemoryContextSwitchTo(entry_cxt);

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
						CHECK_FOR_INTERRUPTS();
						if (++n > most)
							wp_import_refuse(path, most == WP_IMPORT_MAX_SETTINGS ? "has more entries than a server has settings"
									  : "has more entries than a sweep makes");
						wp_check_tree(&e, tok == WJB_VALUE ? psprintf("%s.%s", path, k) :
									  psprintf("%s[" INT64_FORMAT "]", path, n - 1),
									  tok == WJB_VALUE ? k : key);
						MemoryContextReset(entry_cxt);
						k = NULL;
					}
				}
				MemoryContextSwitchTo(old_cxt);
				MemoryContextDelete(entry_cxt);
				break;
			}
		default:
			break;
	}
}

/*
 * Every scalar of `doc` (an object: wp_import_is_export said so), as above.
 */
void
wp_import_scalars_check(Jsonb *doc)
{
	JsonbValue	root;

	if (!JB_ROOT_IS_OBJECT(doc) || JB_ROOT_IS_SCALAR(doc))
		wp_import_refuse("the document", "is not a JSON object");
	root.type = jbvBinary;
	root.val.binary.data = &doc->root;
	root.val.binary.len = VARSIZE(doc) - VARHDRSZ;
	wp_read_number_keys();
	wp_check_tree(&root, "$", NULL);
}

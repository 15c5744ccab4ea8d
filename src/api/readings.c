/*-------------------------------------------------------------------------
 *
 * readings.c
 *		report(), plot(), compare(), export() and import(): what they are
 *		given (a sweep id, the imported document) checked here, in C, so that a DBA who mistypes one reads one
 *		plain error ("no sweep 99", with a HINT), not the PL/pgSQL CONTEXT
 *		lines psql prints after an error raised inside a PL/pgSQL function.
 *		The rest are the SQL functions _report, _plot, _compare, _export
 *		and _import (sql/objects/), run through SPI as the caller.
 *
 * IDENTIFICATION
 *	  src/api/readings.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/timestamp.h"
#include "utils/array.h"
#include "utils/tuplestore.h"

#include "api/import_check.h"
#include "api/import_shape.h"
#include "api/values.h"
#include "common/safe_spi.h"
#include "coordinator/row_writer.h"

PG_FUNCTION_INFO_V1(wp_report);
PG_FUNCTION_INFO_V1(wp_plot);
PG_FUNCTION_INFO_V1(wp_compare);
PG_FUNCTION_INFO_V1(wp_export);
PG_FUNCTION_INFO_V1(wp_import);

/*
 * The setting sweep `id` varied, or an error when this database has no
 * such sweep.  Read as the caller, who needs the right to read sweeps
 * (pg_monitor has it).  Inside SPI.
 */
static char *
wp_sweep_setting(int64 id)
{
	if (SPI_execute_with_args("SELECT setting FROM walpressure.sweeps WHERE sweep_id = $1",
							  1, (Oid[]) {INT8OID}, (Datum[]) {Int64GetDatum(id)},
							  NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not read walpressure.sweeps");
	if (SPI_processed != 1)
		ereport(ERROR,
				(errcode(ERRCODE_NO_DATA_FOUND),
				 errmsg("no sweep " INT64_FORMAT, id),
				 errhint("walpressure.sweeps lists the sweeps of this database.")));
	return SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);
}

/*
 * Run `sql` (which returns what the caller's function returns) with the
 * arguments and put its rows into the caller's result set.
 */
static void
wp_rows_into_result(FunctionCallInfo fcinfo, const char *sql, int nargs, Datum *args)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	Oid			types[2] = {INT8OID, INT8OID};

	if (SPI_execute_with_args(sql, nargs, types, args, NULL, true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not run %s", sql);
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		HeapTuple	t = SPI_tuptable->vals[i];
		int			natts = rsinfo->setDesc->natts;
		Datum	   *values = palloc(sizeof(Datum) * natts);
		bool	   *nulls = palloc(sizeof(bool) * natts);

		for (int c = 0; c < natts; c++)
			values[c] = SPI_getbinval(t, SPI_tuptable->tupdesc, c + 1, &nulls[c]);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
}

/* report(sweep_id bigint) returns setof text: the text chart. */
Datum
wp_report(PG_FUNCTION_ARGS)
{
	Datum		id = PG_GETARG_DATUM(0);

	int			nest;

	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
	SPI_connect();
	nest = wp_safe_path_begin();
	(void) wp_sweep_setting(DatumGetInt64(id));
	wp_rows_into_result(fcinfo, "SELECT * FROM walpressure._report($1)", 1, &id);
	wp_safe_path_end(nest);
	SPI_finish();
	return (Datum) 0;
}

/*
 * The one value `sql` returns for the sweep id of the caller's function,
 * once the sweep is known to exist.
 */
static Datum
wp_one_value(FunctionCallInfo fcinfo, const char *sql)
{
	Datum		id = PG_GETARG_DATUM(0);
	Datum		result;
	bool		isnull;
	int			nest;

	SPI_connect();
	nest = wp_safe_path_begin();
	(void) wp_sweep_setting(DatumGetInt64(id));
	if (SPI_execute_with_args(sql, 1, (Oid[]) {INT8OID}, &id, NULL, true, 1) != SPI_OK_SELECT ||
		SPI_processed != 1)
		elog(ERROR, "could not run %s", sql);
	result = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
	if (!isnull)
		result = SPI_datumTransfer(result, false, -1);
	wp_safe_path_end(nest);
	SPI_finish();
	if (isnull)
		PG_RETURN_NULL();
	PG_RETURN_DATUM(result);
}

/* plot(sweep_id bigint) returns text: the SVG. */
Datum
wp_plot(PG_FUNCTION_ARGS)
{
	return wp_one_value(fcinfo, "SELECT walpressure._plot($1)");
}

/* export(sweep_id bigint) returns jsonb: the sweep, its steps and samples. */
Datum
wp_export(PG_FUNCTION_ARGS)
{
	return wp_one_value(fcinfo, "SELECT walpressure._export($1)");
}

/* compare(sweep_a bigint, sweep_b bigint): two sweeps value by value. */
Datum
wp_compare(PG_FUNCTION_ARGS)
{
	Datum		ids[2] = {PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)};
	char	   *a;
	char	   *b;
	int			nest;

	InitMaterializedSRF(fcinfo, 0);
	SPI_connect();
	nest = wp_safe_path_begin();
	a = wp_sweep_setting(DatumGetInt64(ids[0]));
	b = wp_sweep_setting(DatumGetInt64(ids[1]));
	if (strcmp(a, b) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("sweep " INT64_FORMAT " varies %s and sweep " INT64_FORMAT " varies %s: their values cannot be compared",
						DatumGetInt64(ids[0]), a, DatumGetInt64(ids[1]), b)));
	wp_rows_into_result(fcinfo, "SELECT * FROM walpressure._compare($1, $2)", 2, ids);
	wp_safe_path_end(nest);
	SPI_finish();
	return (Datum) 0;
}

/*
 * import(sweep jsonb) returns bigint: a document export() made, as a new
 * sweep of this database.  Refused plainly when it is not one; checked as
 * the caller, then written as the extension's owner (the caller needs only
 * the right to call import, no right on the tables, so that no one writes
 * a sweep that skipped these checks).
 */
Datum
wp_import(PG_FUNCTION_ARGS)
{
	Datum		doc = PG_GETARG_DATUM(0);
	bool		isnull;
	int64		id;
	int			nest;
	WpOwnerSave caller;

	SPI_connect();
	nest = wp_safe_path_begin();
	if (!wp_import_is_export(DatumGetJsonbP(doc)))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("this is not a sweep walpressure.export() made"),
				 errhint("Give import() the JSON document SELECT walpressure.export(sweep_id); returned on the other server.")));
	wp_import_check(DatumGetJsonbP(doc));

	/*
	 * Looked up and written as the extension's owner: the caller needs no
	 * right on the tables (and so cannot write a sweep that skipped these
	 * checks)
	 */
	wp_as_owner_begin(&caller);
	/* the same document twice is one sweep, not two */
	if (SPI_execute_with_args("SELECT sweep_id FROM walpressure.sweeps "
							  "WHERE (origin ->> 'system_identifier') = ($1 #>> '{server,system_identifier}') "
							  "AND (origin ->> 'sweep_id') = ($1 #>> '{sweep,sweep_id}') "
							  "AND (origin ->> 'exported_at') = ($1 ->> 'exported_at') "
							  "ORDER BY sweep_id LIMIT 1",
							  1, (Oid[]) {JSONBOID}, &doc, NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not look for an earlier import");
	if (SPI_processed == 1)
		ereport(ERROR,
				(errcode(ERRCODE_UNIQUE_VIOLATION),
				 errmsg("this document was imported already, as sweep %s",
						SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1)),
				 errdetail("It is the same sweep of the same server, exported at the same time."),
				 errhint("Read that sweep, or delete it with DELETE FROM walpressure.sweeps WHERE sweep_id = %s; before importing it again.",
						 SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1))));
	if (SPI_execute_with_args("SELECT walpressure._import($1)", 1, (Oid[]) {JSONBOID}, &doc,
							  NULL, false, 1) != SPI_OK_SELECT || SPI_processed != 1)
		elog(ERROR, "could not import the sweep");
	id = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
	wp_as_owner_end(&caller);
	wp_safe_path_end(nest);
	SPI_finish();
	PG_RETURN_INT64(id);
}

/*-------------------------------------------------------------------------
 *
 * arguments.c
 *		run_sweep's arguments typed "any", as a DBA types them: vals as an
 *		array of text, numbers or JSON (a literal, an array, one value),
 *		durations as intervals or seconds, repeats as a number or 'auto'
 *		(with a budget).  Their sizes are checked before anything is made
 *		of them.
 *
 * IDENTIFICATION
 *	  src/api/arguments.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/timestamp.h"

#include "api/arguments.h"

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
void
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
 * An argument typed "any" that holds one value, as text: a literal or text
 * as it is, a number as its type's output function writes it.  NULL when
 * not given (or before the SQL that has it).
 */
char *
wp_any_as_text(FunctionCallInfo fcinfo, int arg, const char *name)
{
	Oid			type;
	Oid			out;
	bool		varlena;

	if (PG_NARGS() <= arg || PG_ARGISNULL(arg))
		return NULL;
	type = get_fn_expr_argtype(fcinfo->flinfo, arg);
	if (type == UNKNOWNOID)
		return pstrdup(DatumGetCString(PG_GETARG_DATUM(arg)));
	if (type == TEXTOID || type == VARCHAROID)
		return TextDatumGetCString(PG_GETARG_DATUM(arg));
	if (type != INT2OID && type != INT4OID && type != INT8OID && type != NUMERICOID &&
		type != FLOAT4OID && type != FLOAT8OID)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("%s must be a number or text, not %s", name, format_type_be(type)),
				 errhint("For example %s => 100 or %s => '50ms'.", name, name)));
	getTypeOutputInfo(type, &out, &varlena);
	return OidOutputFunctionCall(out, PG_GETARG_DATUM(arg));
}

/*
 * A duration argument in seconds: an interval ('60 s', interval '1 min')
 * or a number of seconds (20, 2.5).
 */
double
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

/*
 * repeats and budget: a number of rounds, or repeats => 'auto' and/or a
 * budget (an interval or seconds), which add rounds until the answer is
 * clear (coordinator.c).  With a budget, repeats is the fewest rounds (at
 * least 3, so that the repeats give an interval).
 */
void
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


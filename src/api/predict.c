/*-------------------------------------------------------------------------
 *
 * predict.c
 *		predict(sweep_id, iops_cap, clients): what it is given, and what
 *		the sweep holds, checked here, as the caller, before the model
 *		(_predict, sql/objects/predict/predict.sql) runs through SPI.
 *
 * Refused with an error: a cap or a number of clients that is not
 * positive, a sweep that does not exist here, and a sweep without the
 * figures the model needs: an open loop (its tps is the rate asked: the
 * model is a closed loop's), none of its steps counts, it ran without a disk
 * cap (its flushes took the disk's own time, which the model cannot
 * scale), it was recorded before walpressure 0.7.0 (no commit time), or it
 * did not record the server's CPUs.  What the model cannot predict for one
 * value (too far from what was measured, above a cap whose flushes all
 * waited for it, no commit that waited for a flush) is a row that says why.
 *
 * Two parts of the model are SQL-callable here, for _predict: the loop
 * fitted to a step (_commit_model, sweep/group_commit.c) and one round's
 * prediction (_predict_round, sweep/predict_round.c); each checks the
 * figures it is given first.
 *
 * IDENTIFICATION
 *	  src/api/predict.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "access/htup_details.h"
#include "utils/builtins.h"
#include "utils/tuplestore.h"

#include "api/arguments.h"
#include "common/safe_spi.h"
#include "sweep/group_commit.h"
#include "sweep/predict_round.h"

PG_FUNCTION_INFO_V1(wp_predict);
PG_FUNCTION_INFO_V1(wp_commit_model);
PG_FUNCTION_INFO_V1(wp_predict_round);

/* The arguments: a sweep, a positive cap, positive clients when given. */
static void
wp_predict_args(FunctionCallInfo fcinfo)
{
	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("predict needs a sweep and the cap to predict at"),
				 errhint("For example SELECT * FROM walpressure.predict(5, iops_cap => 3000);")));
	if (PG_GETARG_INT32(1) <= 0 || PG_GETARG_INT32(1) > WP_LOAD_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("iops_cap must be a number of write IOs per second from 1 to %d, not %d",
						WP_LOAD_MAX, PG_GETARG_INT32(1))));
	if (!PG_ARGISNULL(2) && (PG_GETARG_INT32(2) <= 0 || PG_GETARG_INT32(2) > WP_LOAD_MAX))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("clients must be from 1 to %d, not %d", WP_LOAD_MAX, PG_GETARG_INT32(2)),
				 errhint("Leave clients out to predict with the clients the sweep ran.")));
}

/*
 * The sweep exists and holds what the model needs (see the file's
 * comment).  Inside SPI, as the caller.
 */
static void
wp_predict_figures(int64 id)
{
	HeapTuple	t;
	TupleDesc	d;
	bool		isnull;
	bool		no_cpus;
	bool		open_loop;
	int64		counted,
				capped,
				timed;

	if (SPI_execute_with_args("SELECT CASE WHEN s.cpus > 0 THEN s.cpus END, "
							  " s.rate IS NOT NULL OR s.setting = 'rate', "
							  " (SELECT count(*) FROM walpressure.steps x WHERE x.sweep_id = s.sweep_id AND x.discarded IS NULL AND x.value_pos > 0), "
							  " (SELECT count(*) FROM walpressure.steps x WHERE x.sweep_id = s.sweep_id AND x.discarded IS NULL AND x.iops_cap IS NOT NULL), "
							  " (SELECT count(*) FROM walpressure.steps x WHERE x.sweep_id = s.sweep_id AND x.discarded IS NULL AND x.commit_avg_ms IS NOT NULL) "
							  "FROM walpressure.sweeps s WHERE s.sweep_id = $1",
							  1, (Oid[]) {INT8OID}, (Datum[]) {Int64GetDatum(id)},
							  NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not read walpressure.sweeps");
	if (SPI_processed != 1)
		ereport(ERROR,
				(errcode(ERRCODE_NO_DATA_FOUND),
				 errmsg("no sweep " INT64_FORMAT, id),
				 errhint("walpressure.sweeps lists the sweeps of this database.")));
	t = SPI_tuptable->vals[0];
	d = SPI_tuptable->tupdesc;
	(void) SPI_getbinval(t, d, 1, &no_cpus);
	open_loop = DatumGetBool(SPI_getbinval(t, d, 2, &isnull));
	counted = DatumGetInt64(SPI_getbinval(t, d, 3, &isnull));
	capped = DatumGetInt64(SPI_getbinval(t, d, 4, &isnull));
	timed = DatumGetInt64(SPI_getbinval(t, d, 5, &isnull));
	if (open_loop)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("sweep " INT64_FORMAT " ran an open loop: predict models a closed one", id),
				 errdetail("In an open loop the tps is the rate asked while the server keeps it, and what a cap changes is the latency, which the model does not predict."),
				 errhint("Run the sweep at the cap you consider, and read its latency and whether it kept the rate.")));
	if (counted == 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("sweep " INT64_FORMAT " has no step that counts: nothing to predict from", id),
				 errhint("steps.discarded says why each of its steps was left out.")));
	if (capped == 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("sweep " INT64_FORMAT " ran without a disk cap: predict cannot scale it to one", id),
				 errdetail("The model scales the time a WAL flush takes under a cap (the write IOs a flush costs, at the cap's rate); without a cap a flush took the disk's own time, which no figure of the sweep says how to scale."),
				 errhint("Run the sweep with iops_cap => N, a cap near the ones you consider, and predict from it.")));
	if (timed == 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("sweep " INT64_FORMAT " has no commit time: it was recorded before walpressure 0.7.0", id),
				 errdetail("The model needs the time each commit waited for its WAL flush (steps.commit_avg_ms)."),
				 errhint("Run the sweep again with this version.")));
	if (no_cpus)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("sweep " INT64_FORMAT " did not record the server's CPUs", id),
				 errdetail("The model queues the transactions' CPU time on the server's CPUs (sweeps.cpus)."),
				 errhint("Run the sweep again with this version.")));
}

/*
 * predict(sweep_id bigint, iops_cap int, clients int DEFAULT NULL): the
 * model's rows, one per value of the sweep.
 */
Datum
wp_predict(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo;
	Datum		args[3];
	char		nulls[3] = {' ', ' ', PG_ARGISNULL(2) ? 'n' : ' '};
	int			nest;

	wp_predict_args(fcinfo);
	args[0] = PG_GETARG_DATUM(0);
	args[1] = PG_GETARG_DATUM(1);
	args[2] = PG_ARGISNULL(2) ? (Datum) 0 : PG_GETARG_DATUM(2);
	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
	rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	SPI_connect();
	nest = wp_safe_path_begin();
	wp_predict_figures(DatumGetInt64(args[0]));
	if (SPI_execute_with_args("SELECT * FROM walpressure._predict($1, $2, $3)", 3,
							  (Oid[]) {INT8OID, INT4OID, INT4OID}, args, nulls, true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not predict from sweep " INT64_FORMAT, DatumGetInt64(args[0]));
	wp_spi_rows_out(rsinfo);
	wp_safe_path_end(nest);
	SPI_finish();
	return (Datum) 0;
}

/*
 * _commit_model's arguments (and _predict_round's, which it is given for
 * the loop: figures[] the 2nd to 7th and the 9th): clients within what a
 * sweep may run (the MVA takes a step per client, with no wait for a cancel
 * between), and every figure finite, not negative and at most WP_MODEL_MAX
 * (an imported step's bound: beyond it a cycle's arithmetic could
 * overflow), the measured tps, the commit's time and the CPUs positive.
 */
#define WP_MODEL_MAX 1e12

/* x a figure the model takes: finite, 0 or more (above 0 when positive), at most WP_MODEL_MAX */
static bool
wp_model_figure(double x, bool positive)
{
	return isfinite(x) && x >= 0 && !(positive && x == 0) && x <= WP_MODEL_MAX;
}

static void
wp_commit_model_check(int clients, int new_clients, const double figures[7])
{
	static const int args[] = {1, 2, 3, 4, 5, 6, 8};	/* each figure's argument, from 0 */

	for (int i = 0; i < 2; i++)
	{
		int			n = i == 0 ? clients : new_clients;

		if (n <= 0 || n > WP_LOAD_MAX)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("_commit_model: clients must be from 1 to %d, not %d", WP_LOAD_MAX, n),
					 errhint("walpressure.predict() calls it with a step's figures; call predict().")));
	}
	for (int i = 0; i < lengthof(args); i++)
	{
		int			a = args[i];
		double		x = figures[i];
		bool		positive = a == 1 || a == 2 || a == 4;	/* tps, commit_s, cpus */

		if (!wp_model_figure(x, positive))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("_commit_model: argument %d must be a figure %s and at most 1e12, not %g",
							a + 1, positive ? "above 0" : "of 0 or more", x),
					 errhint("walpressure.predict() calls it with a step's figures; call predict().")));
	}
}

/* A row of `desc`: `values` where `nulls` is false, NULL elsewhere */
static Datum
wp_row_of(TupleDesc desc, Datum *values, bool *nulls)
{
	return HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), values, nulls));
}

/*
 * _commit_model(clients, tps, commit_s, cpu_demand, cpus, delay_s, flush_s,
 * new_clients, new_flush_s): the loop of group_commit.c fitted to one step
 * (its clients, tps and a commit's time, its CPU demand on its CPUs,
 * commit_delay in effect and a flush's cost), run with new_clients and a
 * flush costing new_flush_s.  Returns tps, a commit's wait for its flush,
 * a transaction's time at the CPUs, the share of the time a flush cycle
 * runs, flushes a second, and whether the model fitted the step.
 */
Datum
wp_commit_model(PG_FUNCTION_ARGS)
{
	TupleDesc	desc;
	Datum		values[6];
	bool		nulls[6] = {0};
	WpGcStep	step;
	WpGcOut		out;

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "_commit_model must return a composite");
	wp_commit_model_check(PG_GETARG_INT32(0), PG_GETARG_INT32(7),
						  (double[7]) {PG_GETARG_FLOAT8(1), PG_GETARG_FLOAT8(2), PG_GETARG_FLOAT8(3),
									   PG_GETARG_FLOAT8(4), PG_GETARG_FLOAT8(5), PG_GETARG_FLOAT8(6),
						  PG_GETARG_FLOAT8(8)});
	step.clients = PG_GETARG_INT32(0);
	step.tps = PG_GETARG_FLOAT8(1);
	step.commit_s = PG_GETARG_FLOAT8(2);
	step.cpu_demand = PG_GETARG_FLOAT8(3);
	step.cpus = PG_GETARG_FLOAT8(4);
	step.delay = PG_GETARG_FLOAT8(5);
	step.flush_s = PG_GETARG_FLOAT8(6);
	(void) wp_gc_predict(&step, PG_GETARG_INT32(7), PG_GETARG_FLOAT8(8), &out);
	values[0] = Float8GetDatum(out.tps);
	values[1] = Float8GetDatum(out.commit_s);
	values[2] = Float8GetDatum(out.cpu_s);
	values[3] = Float8GetDatum(out.busy);
	values[4] = Float8GetDatum(out.flushes_per_s);
	values[5] = BoolGetDatum(out.fitted);
	return wp_row_of(desc, values, nulls);
}

/* Field `name` of composite `t` as a float8 (its type int4, int8 or float8), or NAN when NULL. */
static double
wp_field(HeapTupleHeader t, const char *name, Oid type)
{
	bool		isnull;
	Datum		v = GetAttributeByName(t, name, &isnull);

	if (isnull)
		return NAN;
	switch (type)
	{
		case INT4OID:
			return (double) DatumGetInt32(v);
		case INT8OID:
			return (double) DatumGetInt64(v);
		default:
			return DatumGetFloat8(v);
	}
}

/* SQL's error for a float8 division by zero, which the PL/pgSQL version raised. */
static void
wp_div0_check(double divisor)
{
	if (divisor == 0)
		ereport(ERROR,
				(errcode(ERRCODE_DIVISION_BY_ZERO),
				 errmsg("division by zero")));
}

/*
 * A round's figures, from its step's row `r` and its sweep's `s`, into
 * *round: false where one it needs is NULL or NaN; one that is not a
 * figure a step can measure (finite, 0 or more, at most 1e12) is refused.
 */
static bool
wp_round_read(HeapTupleHeader s, HeapTupleHeader r, WpPrRound *round)
{
	/* the step's figures and the sweep's CPUs; bounded: checked here, not by the loop */
	static const struct
	{
		const char *name;
		Oid			type;
		size_t		offset;
		bool		bounded;
		bool		of_sweep;
	}			fields[] = {
		{"tps", FLOAT8OID, offsetof(WpPrRound, tps), true, false},
		{"commit_avg_ms", FLOAT8OID, offsetof(WpPrRound, commit_avg_ms), true, false},
		{"server_cpu_s", FLOAT8OID, offsetof(WpPrRound, server_cpu_s), true, false},
		{"client_cpu_s", FLOAT8OID, offsetof(WpPrRound, client_cpu_s), true, false},
		{"transactions", INT8OID, offsetof(WpPrRound, transactions), true, false},
		{"commits", INT8OID, offsetof(WpPrRound, commits), true, false},
		{"wal_fsyncs", INT8OID, offsetof(WpPrRound, wal_fsyncs), true, false},
		{"write_iops", FLOAT8OID, offsetof(WpPrRound, write_iops), true, false},
		{"wal_fsyncs_per_s", FLOAT8OID, offsetof(WpPrRound, wal_fsyncs_per_s), true, false},
		{"fsync_avg_ms", FLOAT8OID, offsetof(WpPrRound, fsync_avg_ms), true, false},
		{"cpus", INT4OID, offsetof(WpPrRound, cpus), false, true}
	};
	bool		isnull;
	bool		missing = false;
	Datum		disk;

	round->clients = DatumGetInt32(GetAttributeByName(r, "clients", &isnull));
	if (isnull)
		return false;
	for (int i = 0; i < lengthof(fields); i++)
	{
		double	   *x = (double *) ((char *) round + fields[i].offset);

		*x = wp_field(fields[i].of_sweep ? s : r, fields[i].name, fields[i].type);
		/* a client's CPU time is not measured everywhere: none then */
		if (isnan(*x) && strcmp(fields[i].name, "client_cpu_s") == 0)
			*x = 0;
		missing |= isnan(*x);
	}
	disk = GetAttributeByName(s, "disk", &isnull);
	round->paced = !isnull && strcmp(TextDatumGetCString(disk), "paced") == 0;
	if (missing)
		return false;

	/*
	 * every figure one a step can measure, as import() bounds them (a
	 * crafted row's infinity would pass the loop's check as a NaN, and a
	 * huge or negative one reach the prediction unchecked)
	 */
	for (int i = 0; i < lengthof(fields); i++)
	{
		double		x = *(double *) ((char *) round + fields[i].offset);

		if (fields[i].bounded && !wp_model_figure(x, false))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("_predict_round: a step's %s must be a figure of 0 or more and at most 1e12, not %g",
							fields[i].name, x),
					 errhint("walpressure.predict() calls it with a sweep's steps; call predict().")));
	}
	return true;
}

/*
 * _predict_round(s sweeps, r steps, cap0, n0, c1, n1, delay_s, own): one
 * round's prediction for a value of sweep s at cap c1 with n1 clients
 * (sweep/predict_round.c), or why it is not made; _predict calls it once a
 * round, after its refusals.  A NULL among what it needs gives a row of
 * NULLs; a figure no step measures, a negative cap or time of the disk's
 * own, and a prediction that is not finite are refused, and every figure
 * that reaches the loop is checked as _commit_model checks its own.
 */
Datum
wp_predict_round(PG_FUNCTION_ARGS)
{
	TupleDesc	desc;
	Datum		values[10];
	bool		nulls[10];
	WpPrRound	round;
	WpPrAt		at;
	WpPrFit		fit;
	WpPrOut		out;
	double		figs[7];
	const char *why;

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "_predict_round must return a composite");
	memset(nulls, true, sizeof(nulls));
	for (int i = 0; i < 7; i++)
		if (PG_ARGISNULL(i))
			return wp_row_of(desc, values, nulls);
	if (!wp_round_read(PG_GETARG_HEAPTUPLEHEADER(0), PG_GETARG_HEAPTUPLEHEADER(1), &round))
		return wp_row_of(desc, values, nulls);
	at.cap0 = PG_GETARG_INT32(2);
	at.n0 = PG_GETARG_INT32(3);
	at.c1 = PG_GETARG_INT32(4);
	at.n1 = PG_GETARG_INT32(5);
	at.delay_s = PG_GETARG_FLOAT8(6);
	at.own = PG_ARGISNULL(7) ? NAN : PG_GETARG_FLOAT8(7);
	if (at.cap0 < 0 || at.c1 < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("_predict_round: a cap must be above 0, not %d", Min(at.cap0, at.c1)),
				 errhint("walpressure.predict() calls it with the sweep's cap and the cap asked; call predict().")));
	if (at.own < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("_predict_round: the disk's own flush time must be NULL or 0 or more, not %g", at.own),
				 errhint("walpressure.predict() calls it with the disk's measured time; call predict().")));

	/* where the PL/pgSQL version divided by zero, the same error */
	wp_div0_check(round.transactions);
	wp_div0_check(round.wal_fsyncs);
	wp_div0_check(round.wal_fsyncs_per_s);
	why = wp_pr_begin(&round, &at, &fit);
	if (why != NULL)
	{
		values[9] = CStringGetTextDatum(why);
		nulls[9] = false;
		return wp_row_of(desc, values, nulls);
	}
	wp_div0_check(at.c1);
	wp_div0_check(at.cap0);
	/* the loop's figures, checked as _commit_model checks them */
	figs[0] = fit.step.tps;
	figs[1] = fit.step.commit_s;
	figs[2] = fit.step.cpu_demand;
	figs[3] = fit.step.cpus;
	figs[4] = fit.step.delay;
	figs[5] = fit.step.flush_s;
	figs[6] = fit.f1;
	wp_commit_model_check(fit.step.clients, at.n1, figs);
	wp_pr_finish(&round, &at, &fit, &out);

	{
		double		o[8] = {out.tps, out.tps_alt, out.g, out.commit_ms, out.latency_ms, out.write_iops,
			out.cpu_share, out.flush_busy};

		for (int i = 0; i < 8; i++)
		{
			if (isinf(o[i]))
				ereport(ERROR,
						(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
						 errmsg("_predict_round: the prediction is beyond any figure (its figure %d is not finite)", i + 1),
						 errhint("walpressure.predict() calls it with a sweep's steps; call predict().")));
			nulls[i] = isnan(o[i]);
			values[i] = Float8GetDatum(o[i]);
		}
	}
	values[8] = BoolGetDatum(out.fitted);
	nulls[8] = false;
	return wp_row_of(desc, values, nulls);
}

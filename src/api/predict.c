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
 * value (too far from what was measured, a flush period set by
 * commit_delay, no commit that waited for a flush) is a row that says why.
 *
 * IDENTIFICATION
 *	  src/api/predict.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "access/htup_details.h"
#include "utils/builtins.h"
#include "utils/tuplestore.h"

#include "api/arguments.h"
#include "common/safe_spi.h"
#include "sweep/mva.h"

PG_FUNCTION_INFO_V1(wp_predict);
PG_FUNCTION_INFO_V1(wp_mva_predict);

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
 * _mva_predict's arguments: clients within what a sweep may run (the MVA
 * takes a step per client, with no wait for a cancel between), and every
 * figure finite and not negative, the measured tps and the CPUs positive.
 */
static void
wp_mva_predict_args(FunctionCallInfo fcinfo)
{
	static const int ints[] = {0, 6};	/* clients, new_clients */
	static const int figures[] = {1, 2, 3, 4, 5, 7, 8};

	for (int i = 0; i < lengthof(ints); i++)
		if (PG_GETARG_INT32(ints[i]) <= 0 || PG_GETARG_INT32(ints[i]) > WP_LOAD_MAX)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("_mva_predict: clients must be from 1 to %d, not %d",
							WP_LOAD_MAX, PG_GETARG_INT32(ints[i])),
					 errhint("walpressure.predict() calls it with a step's figures; call predict().")));
	for (int i = 0; i < lengthof(figures); i++)
	{
		int			a = figures[i];
		double		x = PG_GETARG_FLOAT8(a);
		bool		positive = a == 1 || a == 4;	/* tps, cpus */

		if (!isfinite(x) || x < 0 || (positive && x == 0))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("_mva_predict: argument %d must be a finite figure %s, not %g",
							a + 1, positive ? "above 0" : "of 0 or more", x),
					 errhint("walpressure.predict() calls it with a step's figures; call predict().")));
	}
}

/*
 * _mva_predict(clients, tps, commit_s, cpu_demand, cpus, flush_scale,
 * new_clients, flush_tps, flush_floor): the network fitted to one step
 * (its tps and a commit's time, with its CPU demand on its CPUs: mva.c),
 * then run with new_clients and either its flush demand scaled (flush_tps
 * 0) or, where the disk binds, at flush_tps: the throughput of a flush
 * that never idles (its commits per period), unless the network with the
 * flush at flush_floor (a commit's share of a flush without the cap) gives
 * less; with no floor known (0), the scaled demand then.  Returns tps, a commit's time, the flush's utilization at the step
 * and predicted, and whether the fit held.
 */
Datum
wp_mva_predict(PG_FUNCTION_ARGS)
{
	TupleDesc	desc;
	Datum		values[6];
	bool		nulls[6] = {0};
	WpMvaNet	net = {0};
	WpMvaOut	out;
	bool		fitted;
	double		tps0 = PG_GETARG_FLOAT8(1);
	double		flush_tps = PG_GETARG_FLOAT8(7);
	double		flush_floor = PG_GETARG_FLOAT8(8);
	double		util0;

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "_mva_predict must return a composite");
	wp_mva_predict_args(fcinfo);
	net.cpu_demand = PG_GETARG_FLOAT8(3);
	net.cpus = PG_GETARG_FLOAT8(4);
	fitted = wp_mva_fit(PG_GETARG_INT32(0), tps0, PG_GETARG_FLOAT8(2), &net);
	util0 = tps0 * net.flush_demand;
	net.flush_demand *= PG_GETARG_FLOAT8(5);
	/*
	 * Where the flush would idle and its floor is not known (0), the flush
	 * keeps its scaled demand: a queue that idles at times.
	 */
	if (!(flush_tps > 0 &&
		  (wp_mva_at(&net, PG_GETARG_INT32(6), flush_tps, flush_floor, &out) || flush_floor > 0)))
		wp_mva(&net, PG_GETARG_INT32(6), &out);
	values[0] = Float8GetDatum(out.tps);
	values[1] = Float8GetDatum(out.flush_s);
	values[2] = Float8GetDatum(util0);
	values[3] = Float8GetDatum(out.tps * net.flush_demand);
	values[4] = Float8GetDatum(net.delay);
	values[5] = BoolGetDatum(fitted);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), values, nulls)));
}

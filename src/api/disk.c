/*-------------------------------------------------------------------------
 *
 * disk.c
 *		The disk's SQL functions: set_iops_cap(), clear_iops_cap(), the
 *		iops_cap view's row (never an error: the problem, if any, with its
 *		fix), and probe_fsync() (its arguments checked here, the probe in
 *		system/disk_probe.c).
 *
 * IDENTIFICATION
 *	  src/api/disk.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/htup_details.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "live/shmem.h"
#include "system/cgroup.h"
#include "system/disk_probe.h"

PG_FUNCTION_INFO_V1(wp_probe_fsync);

/*
 * Round for psql: figures of a noisy disk carry no more digits than this.
 * Divided by a whole number, not multiplied by a fraction, so that the
 * double is the nearest to the decimal (12077.3, not 12077.300000000001).
 */
static inline double
wp_round(double v, double unit)
{
	double		per = rint(1.0 / unit);

	return rint(v * per) / per;
}

/*
 * probe_fsync(duration interval, block_size int): ops, ops/s, latency
 * avg/p50/p99 in ms, commit budget per second.
 */
Datum
wp_probe_fsync(PG_FUNCTION_ARGS)
{
	Interval   *duration = PG_GETARG_INTERVAL_P(0);
	int32		block_size = PG_GETARG_INT32(1);
	int64		duration_us;
	WpDiskProbe *probe = palloc(sizeof(WpDiskProbe));
	TupleDesc	desc;
	Datum		values[7];
	bool		nulls[7] = {0};

	wp_require_preload();
	/* months and days first: a huge count of them must not overflow */
	duration_us = duration->month != 0 || duration->day < 0 || duration->day > 1 ? -1 :
		duration->time + duration->day * USECS_PER_DAY;
	if (duration_us <= 0 || duration_us > 3600 * USECS_PER_SEC)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("duration must be between 0 and 1 hour")));
	if (block_size < 512 || block_size > 1024 * 1024 || block_size % 512 != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("block_size must be a multiple of 512 bytes, from 512 bytes to 1MB")));
	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");

	wp_disk_probe_run(duration_us, block_size, probe);

	{
		double		avg_ms = probe->total_us / probe->ops / 1000.0;

		values[0] = Int64GetDatum((int64) probe->ops);
		values[1] = Float8GetDatum(wp_round(probe->seconds, 0.001));
		values[2] = Float8GetDatum(wp_round(probe->ops / probe->seconds, 0.1));
		values[3] = Float8GetDatum(wp_round(avg_ms, 0.001));
		values[4] = Float8GetDatum(wp_round(wp_hist_percentile(&probe->hist, 0.50) / 1000.0, 0.001));
		values[5] = Float8GetDatum(wp_round(wp_hist_percentile(&probe->hist, 0.99) / 1000.0, 0.001));
		values[6] = Float8GetDatum(wp_round(1000.0 / avg_ms, 0.1));
	}
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), values, nulls)));
}

PG_FUNCTION_INFO_V1(wp_set_iops_cap);
PG_FUNCTION_INFO_V1(wp_clear_iops_cap);
PG_FUNCTION_INFO_V1(wp_iops_cap_state);

/*
 * set_iops_cap(write_iops int, read_iops int, device text): enrol every
 * server process in walpressure.cgroup and cap the device's IOPS.
 */
Datum
wp_set_iops_cap(PG_FUNCTION_ARGS)
{
	int64		write_iops;
	int64		read_iops = PG_ARGISNULL(1) ? 0 : PG_GETARG_INT32(1);
	char	   *device = PG_ARGISNULL(2) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(2));
	WpCgroupMode mode;
	WpDevice	dev;
	int			enrolled;

	wp_require_preload();
	if (PG_ARGISNULL(0) || PG_GETARG_INT32(0) <= 0 || (!PG_ARGISNULL(1) && read_iops <= 0))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("IOPS caps must be positive numbers of IOs per second"),
				 errhint("clear_iops_cap() removes the cap.")));
	write_iops = PG_GETARG_INT32(0);

	dev = wp_wal_device(device);
	mode = wp_cgroup_check();
	enrolled = wp_cgroup_enroll(mode);
	wp_cgroup_set_limits(mode, dev, write_iops, read_iops);

	ereport(NOTICE,
			(errmsg("device %u:%u capped at " INT64_FORMAT " write IOPS%s for the %d server processes in cgroup %s:/%s",
					dev.major, dev.minor, write_iops,
					read_iops > 0 ? psprintf(" and " INT64_FORMAT " read IOPS", read_iops) : "",
					enrolled, mode == WP_CG_V2 ? "io" : "blkio", wp_cgroup_name)));
	PG_RETURN_VOID();
}

/*
 * clear_iops_cap(): remove the limits of the pg_wal device (or `device`).
 * The processes stay in the cgroup, which limits nothing any more.
 */
Datum
wp_clear_iops_cap(PG_FUNCTION_ARGS)
{
	char	   *device = PG_ARGISNULL(0) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(0));
	WpCgroupMode mode;
	WpDevice	dev;

	wp_require_preload();
	dev = wp_wal_device(device);
	mode = wp_cgroup_check();
	wp_cgroup_set_limits(mode, dev, 0, 0);
	PG_RETURN_VOID();
}

/*
 * The row of walpressure.iops_cap: never an error, the problem if any.
 */
Datum
wp_iops_cap_state(PG_FUNCTION_ARGS)
{
	TupleDesc	desc;
	Datum		values[8];
	bool		nulls[8];
	WpCgroupMode mode;
	char	   *detail;
	char	   *hint;
	char	   *problem;
	WpDevice	dev;

	wp_require_preload();
	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	memset(nulls, true, sizeof(nulls));

	problem = wp_cgroup_problem(&mode, &detail, &hint);
	values[0] = CStringGetTextDatum(wp_cgroup_mode_name(mode));
	nulls[0] = false;
	values[1] = CStringGetTextDatum(psprintf("%s:/%s", mode == WP_CG_V2 ? "io" : "blkio",
											 wp_cgroup_name));
	nulls[1] = false;
	if (problem == NULL && wp_wal_device_try(&dev))
	{
		int64		w;
		int64		r;
		int			in;
		int			total;

		wp_cgroup_get_limits(mode, dev, &w, &r);
		wp_cgroup_enrolled(mode, &in, &total);
		values[2] = CStringGetTextDatum(psprintf("%u:%u", dev.major, dev.minor));
		values[3] = Int64GetDatum(w);
		values[4] = Int64GetDatum(r);
		values[5] = Int32GetDatum(in);
		values[6] = Int32GetDatum(total);
		nulls[2] = false;
		nulls[3] = w == 0;
		nulls[4] = r == 0;
		nulls[5] = nulls[6] = false;
	}
	else if (problem == NULL)
		problem = "pg_wal is on a file system without a block device";
	if (problem != NULL)
	{
		values[7] = CStringGetTextDatum(hint ? psprintf("%s. %s", problem, hint) : problem);
		nulls[7] = false;
	}
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), values, nulls)));
}

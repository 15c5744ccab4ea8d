/*-------------------------------------------------------------------------
 *
 * disk.c
 *		The disk's SQL functions: set_iops_cap() (the paced disk or the
 *		cgroup's throttle), clear_iops_cap(), the iops_cap view's row (never
 *		an error: the problem, if any, with its fix), and probe_fsync() (its
 *		arguments checked here, the probe in system/disk_probe.c).
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

#include "api/disk_request.h"
#include "live/shmem.h"
#include "sweep/policy.h"
#include "system/cgroup.h"
#include "system/disk_probe.h"
#include "system/paced_disk.h"

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
 * avg/p50/p99 in ms, commit budget per second, and the disk it ran on.
 */
Datum
wp_probe_fsync(PG_FUNCTION_ARGS)
{
	Interval   *duration = PG_GETARG_INTERVAL_P(0);
	int32		block_size = PG_GETARG_INT32(1);
	int64		duration_us;
	WpDiskProbe *probe = palloc(sizeof(WpDiskProbe));
	TupleDesc	desc;
	Datum		values[8];
	bool		nulls[8] = {0};
	WpPacedCap	paced;

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
	/* the disk it ran on: the paced disk's cap, else the throttle's, if any */
	wp_paced_get(&paced);
	if (paced.iops > 0)
		values[7] = CStringGetTextDatum(psprintf("paced at " INT64_FORMAT " write IOPS%s", paced.iops,
												 paced.floor_us > 0 ? psprintf(", a flush at least %.3g ms", paced.floor_us / 1000.0) : ""));
	else
	{
		WpCgroupMode mode;
		char	   *detail;
		char	   *hint;
		WpDevice	dev;
		int64		w = 0;
		int64		r = 0;

		if (wp_cgroup_problem(&mode, &detail, &hint) == NULL && wp_wal_device_try(&dev))
			wp_cgroup_get_limits(mode, dev, &w, &r);
		values[7] = CStringGetTextDatum(w > 0 ? psprintf("throttle at " INT64_FORMAT " write IOPS", w) :
										"uncapped");
	}
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), values, nulls)));
}

PG_FUNCTION_INFO_V1(wp_set_iops_cap);
PG_FUNCTION_INFO_V1(wp_clear_iops_cap);
PG_FUNCTION_INFO_V1(wp_iops_cap_state);

/* The throttle's limits off pg_wal's disk, where the cgroup can say so. */
static void
wp_throttle_clear_if_usable(const char *device)
{
	WpCgroupMode mode;
	char	   *detail;
	char	   *hint;
	WpDevice	dev;
	int64		w = 0;
	int64		r = 0;

	if (wp_cgroup_problem(&mode, &detail, &hint) != NULL)
		return;
	if (device == NULL && !wp_wal_device_try(&dev))
		return;
	if (device != NULL)
		dev = wp_wal_device(device);
	wp_cgroup_get_limits(mode, dev, &w, &r);
	if (w > 0 || r > 0)
		wp_cgroup_set_limits(mode, dev, 0, 0);
}

/*
 * set_iops_cap(write_iops int, read_iops int, device text, disk text,
 * flush_floor_ms float8, burst int): cap pg_wal's disk at write_iops, as
 * the paced disk (each write IO and flush its share of the cap, in arrival
 * order: system/paced_disk.c) or the cgroup's throttle (every server
 * process enrolled in walpressure.cgroup, the device's IOPS limited); by
 * default paced where the server was started with the pacer.  One model
 * at a time: setting one takes the other's cap away.
 */
Datum
wp_set_iops_cap(PG_FUNCTION_ARGS)
{
	int64		write_iops;
	int64		read_iops = PG_ARGISNULL(1) ? 0 : PG_GETARG_INT32(1);
	char	   *device = PG_ARGISNULL(2) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(2));
	char	   *disk = PG_NARGS() <= 3 || PG_ARGISNULL(3) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(3));
	bool		floor_given = PG_NARGS() > 4 && !PG_ARGISNULL(4);
	bool		burst_given = PG_NARGS() > 5 && !PG_ARGISNULL(5);
	bool		defaulted;
	WpDiskModel model;
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
	model = wp_disk_model_arg(disk, &defaulted);

	if (model == WP_DISK_PACED)
	{
		WpPacedCap cap = {write_iops, 0, 0};

		if (read_iops > 0 || device != NULL)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("the paced disk caps the writes of pg_wal's filesystem: it takes no %s",
							read_iops > 0 ? "read_iops" : "device"),
					 errhint("Give disk => 'throttle' to cap %s with the cgroup.",
							 read_iops > 0 ? "reads" : "another device")));
		if (floor_given)
			cap.floor_us = wp_disk_floor_arg(PG_GETARG_FLOAT8(4));
		if (burst_given && (PG_GETARG_INT32(5) < 0 || PG_GETARG_INT32(5) > 1000))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("burst must be from 0 to 1000 IOs"),
					 errhint("It is how many IOs the paced disk lends after an idle time, like a volume's small burst.")));
		if (burst_given)
			cap.burst = PG_GETARG_INT32(5);
		wp_throttle_clear_if_usable(NULL);
		wp_paced_set(&cap);
		ereport(NOTICE,
				(errmsg("pg_wal's filesystem paced at " INT64_FORMAT " write IOs a second for every server process%s",
						write_iops, defaulted ? " (the paced disk: the server was started with walpressure_pacer.so)" : ""),
				 errdetail("A flush of up to 128 kB costs 2 IOs, %.3g ms on an idle disk%s; flushes queue one after another, as on a volume.",
						   Max(2000.0 / write_iops, cap.floor_us / 1000.0),
						   cap.burst > 0 ? psprintf(", %d IOs lent after an idle time", (int) cap.burst) : "")));
		PG_RETURN_VOID();
	}

	if (floor_given || burst_given)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s is the paced disk's, and this cap is the throttle", floor_given ? "flush_floor_ms" : "burst"),
				 errhint("Give disk => 'paced' with it.")));
	dev = wp_wal_device(device);
	mode = wp_cgroup_check();
	enrolled = wp_cgroup_enroll(mode);
	if (wp_paced_available())
		wp_paced_set(&(WpPacedCap) {0, 0, 0});
	wp_cgroup_set_limits(mode, dev, write_iops, read_iops);

	ereport(NOTICE,
			(errmsg("device %u:%u capped at " INT64_FORMAT " write IOPS%s by the cgroup's throttle for the %d server processes in cgroup %s:/%s",
					dev.major, dev.minor, write_iops,
					read_iops > 0 ? psprintf(" and " INT64_FORMAT " read IOPS", read_iops) : "",
					enrolled, mode == WP_CG_V2 ? "io" : "blkio", wp_cgroup_name),
			 errdetail("The throttle lets a 100 ms slice's IOs through at once and holds the rest to the slice's end%s.",
					   defaulted ? " (the server was started without walpressure_pacer.so, so the cap is the throttle)" : "")));
	PG_RETURN_VOID();
}

/*
 * clear_iops_cap(device text): no cap: the paced disk off, and the
 * throttle's limits of the pg_wal device (or `device`) removed.  The
 * processes stay in the cgroup, which limits nothing any more.  Without a
 * usable cgroup, the paced disk alone is cleared (and it is an error only
 * when there is neither).
 */
Datum
wp_clear_iops_cap(PG_FUNCTION_ARGS)
{
	char	   *device = PG_ARGISNULL(0) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(0));
	WpCgroupMode mode;
	WpDevice	dev;

	wp_require_preload();
	if (wp_paced_available())
	{
		wp_paced_set(&(WpPacedCap) {0, 0, 0});
		wp_throttle_clear_if_usable(device);
		PG_RETURN_VOID();
	}
	dev = wp_wal_device(device);
	mode = wp_cgroup_check();
	wp_cgroup_set_limits(mode, dev, 0, 0);
	PG_RETURN_VOID();
}

/*
 * The row of walpressure.iops_cap: never an error, the problem if any.
 * The cap in force (paced, or the throttle's limits), what the cgroup is,
 * and whether the server has the pacer.
 */
Datum
wp_iops_cap_state(PG_FUNCTION_ARGS)
{
	TupleDesc	desc;
	Datum		values[12];
	bool		nulls[12];
	WpCgroupMode mode;
	char	   *detail;
	char	   *hint;
	char	   *problem;
	WpDevice	dev;
	WpPacedCap	paced;

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
		if (w > 0 || r > 0)
		{
			values[8] = CStringGetTextDatum("throttle");
			nulls[8] = false;
		}
	}
	else if (problem == NULL)
		problem = "pg_wal is on a file system without a block device";

	/* the paced disk: its cap in force overrides the throttle's columns */
	wp_paced_get(&paced);
	if (paced.iops > 0)
	{
		values[3] = Int64GetDatum(paced.iops);
		nulls[3] = false;
		nulls[4] = true;
		values[8] = CStringGetTextDatum("paced");
		values[9] = Float8GetDatum(paced.floor_us / 1000.0);
		values[10] = Int32GetDatum((int32) paced.burst);
		nulls[8] = nulls[9] = nulls[10] = false;
	}
	values[11] = CStringGetTextDatum(wp_paced_available() ? "loaded" :
									 psprintf("not loaded: %s", wp_paced_hint()));
	nulls[11] = false;

	if (problem != NULL)
	{
		values[7] = CStringGetTextDatum(hint ? psprintf("%s. %s", problem, hint) : problem);
		nulls[7] = false;
	}
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), values, nulls)));
}

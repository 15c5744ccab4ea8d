/*-------------------------------------------------------------------------
 *
 * disk_request.c
 *		What disk a sweep's cap stands for, checked as the caller: run_sweep's
 *		disk (paced or throttle) and flush_floor_ms, or the disk swept,
 *		run_sweep('disk', ARRAY['paced', 'throttle'], iops_cap => N).
 *
 * The paced disk (walpressure_pacer.so, preloaded into the server) charges
 * every write IO and flush on pg_wal's filesystem its share of the cap, in
 * arrival order, as a cloud volume queues; the throttle is the cgroup's
 * blk-throttle, which lets a 100 ms slice's IOs through at once and stalls
 * the rest to the slice's end, a cliff no volume has.  Without disk =>, a
 * cap is paced where the server was started with the pacer, else the
 * throttle, and the plan NOTICE says which and why.  Refused here, before
 * anything starts: a model without a cap, a floor without the paced disk,
 * the paced disk where the server lacks the pacer (the HINT says how to add
 * it), and a paced sweep while the throttle caps pg_wal's disk (both at
 * once would be neither).
 *
 * IDENTIFICATION
 *	  src/api/disk_request.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "utils/builtins.h"

#include "api/arguments.h"
#include "api/disk_request.h"
#include "api/values.h"
#include "sweep/policy.h"
#include "system/cgroup.h"
#include "system/paced_disk.h"

/* Refuse the paced disk where the server was started without the pacer. */
void
wp_disk_require_paced(void)
{
	if (!wp_paced_available())
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("the paced disk needs walpressure_pacer.so, and this server was started without it"),
				 errdetail("The paced disk charges each write IO and flush of pg_wal's filesystem its share of the cap, in the server's own processes: the library must be preloaded into the server."),
				 errhint("%s Or give disk => 'throttle' for the cgroup's blk-throttle.", wp_paced_hint())));
}

/*
 * Refuse a paced cap while the cgroup throttles pg_wal's disk: the two
 * would both act.  Nothing to check where the cgroup is not usable (no
 * throttle can be in place through it).
 */
void
wp_disk_refuse_throttle_in_place(void)
{
	WpCgroupMode mode;
	char	   *detail;
	char	   *hint;
	WpDevice	dev;
	int64		w = 0;
	int64		r = 0;

	if (wp_cgroup_problem(&mode, &detail, &hint) != NULL || !wp_wal_device_try(&dev))
		return;
	wp_cgroup_get_limits(mode, dev, &w, &r);
	if (w > 0 || r > 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("the cgroup throttles pg_wal's disk (%u:%u) already", dev.major, dev.minor),
				 errdetail("A paced cap on top of the throttle's limits would be neither disk."),
				 errhint("Remove them with SELECT walpressure.clear_iops_cap(); first.")));
}

/*
 * The disk a cap stands for, from disk => (NULL: paced where the pacer is
 * there, else the throttle; *defaulted says so).
 */
WpDiskModel
wp_disk_model_arg(const char *disk, bool *defaulted)
{
	WpDiskModel model;

	*defaulted = disk == NULL;
	if (disk == NULL)
		return wp_paced_available() ? WP_DISK_PACED : WP_DISK_THROTTLE;
	model = (WpDiskModel) wp_check_disk_value(disk);
	if (model == WP_DISK_PACED)
		wp_disk_require_paced();
	return model;
}

/* A paced flush's floor in ms: from 0 to a second. */
double
wp_disk_floor_arg(double floor_ms)
{
	if (isnan(floor_ms) || floor_ms < 0 || floor_ms > WP_FLUSH_FLOOR_MAX_MS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("flush_floor_ms must be from 0 to %.0f milliseconds", WP_FLUSH_FLOOR_MAX_MS),
				 errhint("It is the least time a flush of the paced disk takes on an idle disk, like 0.5 for a cloud volume's flush.")));
	return floor_ms * 1000.0;
}

/*
 * run_sweep's disk and flush_floor_ms (after the cap and the setting are
 * read): the model every capped step runs on, or each value's when disk is
 * swept (its values, checked as the swept setting's, are in ivals).
 */
void
wp_request_disk(FunctionCallInfo fcinfo, WpSweepRequest *req)
{
	const char *disk = PG_NARGS() > A_DISK && !PG_ARGISNULL(A_DISK) ?
		text_to_cstring(PG_GETARG_TEXT_PP(A_DISK)) : NULL;
	bool		floor_given = PG_NARGS() > A_FLUSH_FLOOR && !PG_ARGISNULL(A_FLUSH_FLOOR);
	bool		swept = strcmp(req->setting, "disk") == 0;
	bool		capped = req->iops_cap > 0 || strcmp(req->setting, "iops_cap") == 0;
	bool		paced = false;
	bool		throttle = false;

	if (swept && disk != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("disk is the swept setting; it cannot also be passed as disk")));
	if ((swept || disk != NULL || floor_given) && !capped)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s applies to a cap, and this sweep has none",
						swept || disk != NULL ? "disk" : "flush_floor_ms"),
				 errhint("Give the cap too, like iops_cap => 1000.")));
	req->disk = wp_disk_model_arg(disk, &req->disk_defaulted);
	if (swept)
	{
		for (int i = 0; i < req->nvals; i++)
		{
			paced |= req->ivals[i] == WP_DISK_PACED;
			throttle |= req->ivals[i] == WP_DISK_THROTTLE;
		}
	}
	else if (capped)
	{
		paced = req->disk == WP_DISK_PACED;
		throttle = req->disk == WP_DISK_THROTTLE;
	}
	if (floor_given)
	{
		if (!paced)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("flush_floor_ms is the paced disk's, and this sweep's cap is the throttle"),
					 errhint("Give disk => 'paced' with it.")));
		req->flush_floor_us = wp_disk_floor_arg(PG_GETARG_FLOAT8(A_FLUSH_FLOOR));
	}
	if (paced)
	{
		wp_disk_require_paced();
		if (!throttle)
			wp_disk_refuse_throttle_in_place();
	}
	req->uses_paced = paced;
	req->uses_throttle = throttle;
}

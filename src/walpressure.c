/*-------------------------------------------------------------------------
 *
 * walpressure.c
 *		Module load: walpressure's configuration parameters, its shared
 *		memory, the commit probe and the sampler worker.
 *
 * walpressure measures how a server flushes its WAL (commits, WAL fsyncs,
 * commits per fsync, fsync and commit latency) and runs experiments on the
 * settings that govern it.  Everything that needs shared memory requires
 * the library in shared_preload_libraries; loaded any other way it only
 * defines its parameters, and its SQL functions say what is missing.
 *
 * IDENTIFICATION
 *	  src/walpressure.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "miscadmin.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "utils/guc.h"

#include "engine/engine.h"
#include "job/guard.h"
#include "job/slot.h"
#include "live/commit_probe.h"
#include "live/sampler.h"
#include "live/shmem.h"
#include "restore/restore.h"
#include "system/alter_system.h"
#include "system/cgroup.h"
#include "system/paced_disk.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

static shmem_request_hook_type prev_shmem_request_hook = NULL;
static shmem_startup_hook_type prev_shmem_startup_hook = NULL;

/*
 * shmem_request_hook: the memory of every block, and two locks (the live
 * side's, the job slot's).
 */
static void
wp_shmem_request(void)
{
	if (prev_shmem_request_hook)
		prev_shmem_request_hook();

	RequestAddinShmemSpace(wp_live_shmem_size());
	RequestAddinShmemSpace(MAXALIGN(wp_job_shmem_size()));
	RequestAddinShmemSpace(MAXALIGN(wp_clients_shmem_size()));
	RequestAddinShmemSpace(MAXALIGN(wp_settings_probe_shmem_size()));
	RequestAddinShmemSpace(MAXALIGN(wp_restore_shmem_size()));
	RequestAddinShmemSpace(MAXALIGN(wp_paced_shmem_size()));
	RequestNamedLWLockTranche("walpressure", 2);
}

/*
 * shmem_startup_hook: each block created or attached to by its own module;
 * then, in the postmaster only (at start and after a crash-restart, before
 * recovery runs and anyone connects), the server settings an interrupted
 * sweep changed are put back.
 */
static void
wp_shmem_startup(void)
{
	LWLockPadded *locks;
	bool		found;
	void	   *block;

	if (prev_shmem_startup_hook)
		prev_shmem_startup_hook();

	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	locks = GetNamedLWLockTranche("walpressure");
	wp_live_shmem_init(&locks[0].lock);
	block = ShmemInitStruct("walpressure job", wp_job_shmem_size(), &found);
	wp_job_shmem_init(block, found, &locks[1].lock);
	block = ShmemInitStruct("walpressure clients", wp_clients_shmem_size(), &found);
	wp_clients_shmem_init(block, found);
	block = ShmemInitStruct("walpressure settings probe", wp_settings_probe_shmem_size(), &found);
	wp_settings_probe_shmem_init(block, found);
	block = ShmemInitStruct("walpressure restore", wp_restore_shmem_size(), &found);
	wp_restore_shmem_init(block, found);
	block = ShmemInitStruct("walpressure paced disk", wp_paced_shmem_size(), &found);
	wp_paced_shmem_init(block, found);
	LWLockRelease(AddinShmemInitLock);

	if (!IsUnderPostmaster)
		wp_restore_at_start();
}

/*
 * walpressure.cgroup names a cgroup below the controller's root: no "..",
 * no absolute path, nothing empty, no white space, at most 255 bytes (the
 * state file records it on one line).
 */
static bool
wp_check_cgroup_name(char **newval, void **extra, GucSource source)
{
	const char *v = *newval;

	if (v == NULL || v[0] == '\0' || v[0] == '/' || strstr(v, "..") != NULL ||
		strlen(v) > 255 || strpbrk(v, " \n\r\t") != NULL)
	{
		GUC_check_errdetail("walpressure.cgroup must be a cgroup path relative to the controller's root, like \"walpressure\".");
		return false;
	}
	return true;
}

/* walpressure.equivalence_margin: read in SQL through current_setting() */
static double wp_equivalence_margin = 2.0;

/*
 * Module load callback.
 */

void
_PG_init(void)
{
	DefineCustomIntVariable("walpressure.sample_interval",
							"Time between two samples of the WAL counters.",
							NULL,
							&wp_sample_interval_ms,
							1000,
							100,
							3600 * 1000,
							PGC_SIGHUP,
							GUC_UNIT_MS,
							NULL, NULL, NULL);

	DefineCustomStringVariable("walpressure.cgroup",
							   "The cgroup set_iops_cap and sweeps put the server in, relative to the IO controller's root.",
							   "Created once by root and delegated to the server's user: cgcreate -a postgres:postgres -t postgres:postgres -g blkio:/walpressure",
							   &wp_cgroup_name,
							   "walpressure",
							   PGC_SIGHUP,
							   0,
							   wp_check_cgroup_name, NULL, NULL);

	/* the commit probe's leader detection where it costs a flush (18 on) */
	DefineCustomBoolVariable("walpressure.exact_leaders",
							 "Tell, on PostgreSQL 18 and later, which of this session's commits did the WAL fsync (leaders).",
							 "It costs a flush of the session's I/O statistics per commit; every sweep's clients turn it on.  Before 18 commits are always told, at no cost.",
							 &wp_exact_leaders,
							 false,
							 PGC_USERSET,
							 0,
							 NULL, NULL, NULL);

	/* read by the SQL of the decision (sql/objects/decision/rule.sql) */
	DefineCustomRealVariable("walpressure.equivalence_margin",
							 "Two values whose tps ratio's 95% interval lies within this many percent of 1 read the same (equivalent).",
							 "The margin of the equivalence verdict of results, best, report, compare and repeats => 'auto'.",
							 &wp_equivalence_margin,
							 2.0,
							 0.1,
							 50.0,
							 PGC_USERSET,
							 0,
							 NULL, NULL, NULL);

	if (!process_shared_preload_libraries_in_progress)
		return;

	DefineCustomIntVariable("walpressure.sample_history",
							"Number of samples kept in shared memory.",
							"At the default interval of one second, 3600 keeps the last hour.",
							&wp_sample_history,
							3600,
							10,
							86400,
							PGC_POSTMASTER,
							0,
							NULL, NULL, NULL);

	MarkGUCPrefixReserved("walpressure");

	prev_shmem_request_hook = shmem_request_hook;
	shmem_request_hook = wp_shmem_request;
	prev_shmem_startup_hook = shmem_startup_hook;
	shmem_startup_hook = wp_shmem_startup;
	wp_probe_register();
	wp_sampler_register();
	wp_restore_register();
	wp_guard_register();
}

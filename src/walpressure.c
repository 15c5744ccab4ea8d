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
#include "utils/guc.h"

#include "cgroup.h"
#include "guard.h"
#include "shmem.h"
#include "walpressure.h"

PG_MODULE_MAGIC;

int			wp_sample_interval_ms = 1000;
int			wp_sample_history = 3600;

void		_PG_init(void);

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

	wp_shmem_install_hooks();
	wp_probe_register();
	wp_sampler_register();
	wp_guard_register();
}

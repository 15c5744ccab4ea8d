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

#include "walpressure.h"

PG_MODULE_MAGIC;

int			wp_sample_interval_ms = 1000;
int			wp_sample_history = 3600;

void		_PG_init(void);

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
}

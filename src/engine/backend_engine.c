/*-------------------------------------------------------------------------
 *
 * backend_engine.c
 *		The backend load engine: a step's clients as dynamic background
 *		workers inside the server (client_worker.c), started, watched and stopped.
 *
 * The engine writes the step's load into the shared block and zeroes one
 * slot per client before any client starts; from then until they have all
 * exited only the clients write their slots.  Stopping raises the stop flag,
 * waits for each to exit (and so to flush its statistics), and terminates
 * one that does not stop in time.
 *
 * IDENTIFICATION
 *	  src/engine/backend_engine.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "storage/shmem.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/latch.h"
#include "utils/memutils.h"

#include "engine/engine.h"
#include "common/worker.h"

WpClientBlock *wp_clients = NULL;

static BackgroundWorkerHandle **wp_handles = NULL;
static int	wp_nrunning = 0;

static bool wp_backend_check(void);

/* How long clients may take to flush their statistics or to stop. */
#define WP_CLIENT_WAIT_MS	10000
#define WP_CLIENT_CUT_MS	1000

Size
wp_clients_shmem_size(void)
{
	return add_size(offsetof(WpClientBlock, slot),
					mul_size(max_worker_processes, sizeof(WpClientSlot)));
}

static void
wp_slot_init(WpClientSlot *c, uint32 gen)
{
	memset(c, 0, sizeof(WpClientSlot));
	pg_atomic_init_u64(&c->txns, 0);
	pg_atomic_init_u64(&c->retries, 0);
	pg_atomic_init_u32(&c->flushed_gen, gen);
	pg_atomic_init_u32(&c->done, 0);
	pg_atomic_init_u32(&c->failed, 0);
	for (int b = 0; b < WP_HIST_BUCKETS; b++)
		pg_atomic_init_u64(&c->hist.bucket[b], 0);
}

void
wp_clients_shmem_init(void *block, bool found)
{
	wp_clients = block;
	if (!found)
	{
		memset(wp_clients, 0, wp_clients_shmem_size());
		wp_clients->nslots = max_worker_processes;
		pg_atomic_init_u32(&wp_clients->stop, 0);
		pg_atomic_init_u32(&wp_clients->flush_gen, 0);
		for (int i = 0; i < wp_clients->nslots; i++)
			wp_slot_init(&wp_clients->slot[i], 0);
	}
}

/*
 * Start the step's clients and wait until they run.
 */
static void
wp_backend_start(const WpLoadSpec *spec, double run_s)
{
	int			n = spec->clients;

	if (n < 1 || n > wp_clients->nslots)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_RESOURCES),
				 errmsg("%d clients: walpressure has slots for 1 to %d (max_worker_processes)",
						n, wp_clients->nslots)));
	/*
	 * A client that did not stop when told to (wp_backend_stop gives up on
	 * it after a while) may still write to its slot: no slot is reused
	 * while one runs.
	 */
	{
		pid_t		stuck = wp_worker_running("walpressure client");

		if (stuck != 0)
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_IN_USE),
					 errmsg("a walpressure client worker of an earlier step (pid %d) has not stopped",
							(int) stuck),
					 errdetail("It would share the counters of this step's clients."),
					 errhint("See why it does not stop (SELECT * FROM pg_stat_activity WHERE pid = %d), or end it with pg_terminate_backend.",
							 (int) stuck)));
	}
	memcpy(&wp_clients->spec, spec, sizeof(WpLoadSpec));
	for (int i = 0; i < n; i++)
		wp_slot_init(&wp_clients->slot[i], pg_atomic_read_u32(&wp_clients->flush_gen));
	pg_atomic_write_u32(&wp_clients->stop, 0);
	pg_write_barrier();

	if (wp_handles != NULL)
		pfree(wp_handles);
	wp_handles = MemoryContextAllocZero(TopMemoryContext,
										sizeof(BackgroundWorkerHandle *) * n);
	for (int i = 0; i < n; i++)
	{
		BackgroundWorker worker;
		BgwHandleStatus status;
		pid_t		pid;

		wp_dynamic_worker(&worker, "wp_client_main", "walpressure client");
		snprintf(worker.bgw_name, BGW_MAXLEN, "walpressure client %d", i + 1);
		worker.bgw_main_arg = Int32GetDatum(i);

		if (!RegisterDynamicBackgroundWorker(&worker, &wp_handles[i]))
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_RESOURCES),
					 errmsg("could not start client worker %d of %d", i + 1, n),
					 errhint("Raise max_worker_processes (now %d) to at least %d and restart the server.",
							 max_worker_processes, n + 2)));
		wp_nrunning = i + 1;
		status = WaitForBackgroundWorkerStartup(wp_handles[i], &pid);
		/*
		 * A client whose workload fails at once (custom SQL without rights)
		 * can be gone before this backend looks: it said why in its slot.
		 */
		if (status == BGWH_STOPPED)
			wp_backend_check();
		if (status != BGWH_STARTED)
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_RESOURCES),
					 errmsg("client worker %d of %d did not start", i + 1, n),
					 errhint("See the server log.")));
	}
}

/*
 * Raise an error if a client stopped on an error or died: an in-server
 * client stops only on the workload's own error, which every step would hit.
 */
static bool
wp_backend_check(void)
{
	for (int i = 0; i < wp_nrunning; i++)
	{
		WpClientSlot *c = &wp_clients->slot[i];
		pid_t		pid;

		if (pg_atomic_read_u32(&c->failed) != 0)
		{
			pg_read_barrier();
			ereport(ERROR,
					(errcode(c->sqlerrcode ? c->sqlerrcode : ERRCODE_EXTERNAL_ROUTINE_EXCEPTION),
					 errmsg("client worker %d stopped: %s", i + 1, c->error)));
		}
		if (pg_atomic_read_u32(&c->done) == 0 &&
			GetBackgroundWorkerPid(wp_handles[i], &pid) == BGWH_STOPPED)
			ereport(ERROR,
					(errcode(ERRCODE_EXTERNAL_ROUTINE_EXCEPTION),
					 errmsg("client worker %d exited unexpectedly", i + 1),
					 errhint("See the server log.")));
	}
	return true;
}

/*
 * Have every client flush its pending statistics, so that pg_stat_wal read
 * next covers everything they did.
 */
static bool
wp_backend_flush(WpWaitFn wait)
{
	uint32		gen = pg_atomic_add_fetch_u32(&wp_clients->flush_gen, 1);

	for (int waited = 0; waited < WP_CLIENT_WAIT_MS; waited += 10)
	{
		bool		all = true;

		for (int i = 0; i < wp_nrunning && all; i++)
			all = pg_atomic_read_u32(&wp_clients->slot[i].flushed_gen) == gen;
		if (all)
			return true;
		if (!wait(10))
			return false;
	}
	return true;				/* a very long transaction: go on, a bit early */
}

/*
 * The clients' counters, summed now.
 */
static void
wp_backend_read(WpLoadTotals *t)
{
	memset(t, 0, sizeof(WpLoadTotals));
	for (int i = 0; i < wp_nrunning; i++)
	{
		WpClientSlot *c = &wp_clients->slot[i];

		t->txns += pg_atomic_read_u64(&c->txns);
		t->retries += pg_atomic_read_u64(&c->retries);
		pg_read_barrier();
		t->latency_ms += *(volatile double *) &c->latency_ms;
		t->latency_sq_ms += *(volatile double *) &c->latency_sq_ms;
		wp_hist_accumulate(&t->hist, &c->hist);
	}
}

/*
 * Stop the clients and wait until they have exited (and so flushed their
 * statistics).  One that does not stop in time is terminated, then given
 * up on with a WARNING.  Safe to call when none run.  In-server clients
 * have no planned end: finish changes nothing.
 */
static void
wp_backend_stop(bool finish)
{
	/* a step cut short does not wait for the caller's statement to end */
	int			grace = finish ? WP_CLIENT_WAIT_MS : WP_CLIENT_CUT_MS;

	pg_atomic_write_u32(&wp_clients->stop, 1);
	for (int i = 0; i < wp_nrunning; i++)
	{
		for (int waited = 0;; waited += 100)
		{
			pid_t		pid = 0;

			if (GetBackgroundWorkerPid(wp_handles[i], &pid) == BGWH_STOPPED)
				break;
			if (waited == grace)
				TerminateBackgroundWorker(wp_handles[i]);
			if (waited >= grace + 2 * WP_CLIENT_WAIT_MS)
			{
				ereport(WARNING,
						(errmsg("walpressure client worker %d (pid %d) does not stop", i + 1,
								(int) pid)));
				break;
			}
			(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
							 100, PG_WAIT_EXTENSION);
			ResetLatch(MyLatch);
		}
	}
	wp_nrunning = 0;
}

/*
 * The coordinator leaves without stopping its clients (a FATAL error): have
 * the postmaster terminate them, waiting for nothing.
 */
void
wp_backend_terminate_all(void)
{
	pg_atomic_write_u32(&wp_clients->stop, 1);
	for (int i = 0; i < wp_nrunning; i++)
		TerminateBackgroundWorker(wp_handles[i]);
}

/* Tell the clients to stop now; stop(true) waits for them. */
static void
wp_backend_cut(void)
{
	pg_atomic_write_u32(&wp_clients->stop, 1);
}

/* A step either ran clean or failed: never marked. */
static const char *
wp_backend_lost(void)
{
	return NULL;
}

/* The clients are server processes: their CPU is in the server's. */
static double
wp_backend_cpu_s(void)
{
	return -1;
}

const WpLoadEngine wp_backend_engine = {
	.name = "backend",
	.start = wp_backend_start,
	.check = wp_backend_check,
	.flush = wp_backend_flush,
	.read = wp_backend_read,
	.stop = wp_backend_stop,
	.cut = wp_backend_cut,
	.resolve = NULL,
	.lost = wp_backend_lost,
	.cpu_s = wp_backend_cpu_s,
};

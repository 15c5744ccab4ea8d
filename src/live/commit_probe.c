/*-------------------------------------------------------------------------
 *
 * commit_probe.c
 *		The commit probe: a transaction callback in every backend that
 *		counts commits, times them, and tells leaders from followers.
 *
 * A committing transaction that has an xid flushes the WAL up to its commit
 * record between XACT_EVENT_PRE_COMMIT and XACT_EVENT_COMMIT (xact.c
 * CommitTransaction: RecordTransactionCommit runs between the two
 * callbacks).  Either this backend won WALWriteLock and did the fsync for
 * everyone queued behind it (a leader: its own pending WAL stats counted a
 * sync), or another backend's flush covered its record (a follower).  The
 * probe compares the backend's own WAL fsync count and time across the two
 * callbacks, which is exact (compat.h says how each major counts them).
 *
 * Before 18 the counts are the backend's pending WAL statistics, a read of
 * two fields.  From 18 on they sit only in pending I/O statistics that
 * pgstat keeps private: reading them means flushing them into the
 * backend's statistics entry under its lock, several thousand instructions
 * a commit (about 0.9% of a pgbench transaction's).  So on 18 and later
 * the probe tells leaders from followers only in sessions that ask for it
 * (walpressure.exact_leaders: every sweep's clients do) and otherwise
 * counts and times commits alone, as cheaply as before 18; the live view's
 * leader share is then over the commits that were told (probed), and its
 * fsync figures the server's (pg_stat_io).
 *
 * This runs in the commit path after the commit is durable, with interrupts
 * held: it must never ERROR or allocate.  It reads the clock twice, the
 * backend's fsync counts when told to, and writes a few counters of its
 * own slot.
 *
 * IDENTIFICATION
 *	  src/live/commit_probe.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "access/xlog.h"
#include "portability/instr_time.h"

#include "compat.h"
#include "live/shmem.h"
#include "live/commit_probe.h"

/* walpressure.exact_leaders: on 18 and later, tell leaders in this session */
bool		wp_exact_leaders = false;

/* State carried from PRE_COMMIT to COMMIT of the current transaction. */
static bool wp_in_commit = false;
static instr_time wp_commit_start;
static uint64 wp_syncs_before;
static uint64 wp_sync_us_before;
static bool wp_have_before;

/*
 * Account one committed transaction in this process's slot.
 */
static void
wp_probe_record(void)
{
	WpProbeSlot *slot = wp_probe_slot(wp_my_procno());
	instr_time	elapsed;
	uint64		commit_us;
	uint64		syncs;
	uint64		sync_us;

	if (slot == NULL)
		return;

	INSTR_TIME_SET_CURRENT(elapsed);
	INSTR_TIME_SUBTRACT(elapsed, wp_commit_start);
	commit_us = INSTR_TIME_GET_MICROSEC(elapsed);

	wp_owned_add(&slot->commits, 1);
	wp_owned_add(&slot->commit_time_us, commit_us);
	wp_hist_add_owned(&slot->commit_hist, commit_us);

	if (!wp_have_before)
		return;
	wp_owned_add(&slot->probed, 1);
	wp_backend_wal_syncs(&syncs, &sync_us);

	/*
	 * Counts that went down were reset between the two reads (on 18,
	 * pg_stat_reset_backend_stats() of this backend): nothing is known of
	 * this commit's fsyncs, and it counts as a follower.  No loop and no
	 * division here depends on the counts.
	 */
	if (syncs <= wp_syncs_before || sync_us < wp_sync_us_before)
		return;
	syncs -= wp_syncs_before;
	sync_us -= wp_sync_us_before;

	wp_owned_add(&slot->leaders, 1);
	wp_owned_add(&slot->leader_fsyncs, syncs);
	if (track_wal_io_timing)
	{
		wp_owned_add(&slot->timed_fsyncs, syncs);
		wp_owned_add(&slot->fsync_time_us, sync_us);
		wp_hist_add_owned_n(&slot->fsync_hist, sync_us / syncs, syncs);
	}
}

/*
 * XactCallback: note the start of a top-level commit, account it at its end.
 */
static void
wp_xact_callback(XactEvent event, void *arg)
{
	switch (event)
	{
		case XACT_EVENT_PRE_COMMIT:
			wp_in_commit = true;

			/*
			 * Where reading the counts costs a flush (18), only in a session
			 * that asks for it, and only for a transaction that has an xid
			 * already: one that gets it later (a NOTIFY's, in
			 * PreCommit_Notify) is counted, not told.
			 */
			wp_have_before = WP_BACKEND_WAL_SYNCS_CHEAP ||
				(wp_exact_leaders && TransactionIdIsValid(GetTopTransactionIdIfAny()));
			if (wp_have_before)
				wp_backend_wal_syncs(&wp_syncs_before, &wp_sync_us_before);
			INSTR_TIME_SET_CURRENT(wp_commit_start);
			break;
		case XACT_EVENT_COMMIT:
			if (wp_in_commit && TransactionIdIsValid(GetTopTransactionIdIfAny()))
				wp_probe_record();
			wp_in_commit = false;
			break;
		case XACT_EVENT_ABORT:
		case XACT_EVENT_PREPARE:
			wp_in_commit = false;
			break;
		default:
			break;
	}
}

/*
 * Register the probe in the postmaster, so that every process it forks
 * inherits it.
 */
void
wp_probe_register(void)
{
	RegisterXactCallback(wp_xact_callback, NULL);
}

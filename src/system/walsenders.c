/*-------------------------------------------------------------------------
 *
 * walsenders.c
 *		Synchronous standbys, as the primary sees them.
 *
 * A commit with synchronous_commit = remote_write, on or remote_apply
 * waits, after its local WAL flush, in SyncRepWaitForLSN (wait event
 * IPC:SyncRep) until the standbys synchronous_standby_names names have
 * reported its commit record written, flushed or applied.  When none is
 * there to answer, it waits for ever.  So a step whose commits wait for a
 * standby:
 *	- is refused before the sweep starts when the standby is not connected
 *	  and streaming (api/standby_request.c, as the caller, with
 *	  wp_standbys_able);
 *	- is watched while it runs (wp_syncrep_ready_now, every 100 ms by
 *	  step_measure.c): the standbys it needs must be connected, streaming and
 *	  answering; when they are not, the step ends, and the load's commits
 *	  still waiting are released (wp_syncrep_release) so nothing hangs.
 *
 * The walsenders' positions and lags are read from shared memory as
 * pg_stat_get_wal_senders() reads them, once a second over a step's window
 * (wp_standbys_sample).  The time commits spend waiting for the standby is
 * measured by the sampler: every millisecond while synchronous_standby_names
 * names standbys and walsenders run, it counts the processes in IPC:SyncRep
 * and adds count x elapsed time (live/sampler.c, from wp_syncrep_waiting).
 * The step and the live view divide that by the probe's commit time.
 *
 * IDENTIFICATION
 *	  src/system/walsenders.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <signal.h>

#include "miscadmin.h"
#include "pgstat.h"
#include "access/xlog.h"
#include "replication/syncrep.h"
#include "replication/walsender.h"
#include "replication/walsender_private.h"
#include "storage/proc.h"
#include "storage/procarray.h"
#include "storage/spin.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"
#include "utils/wait_event.h"
#if PG_VERSION_NUM >= 160000
#include "utils/guc_hooks.h"
#endif

#include "compat.h"
#include "system/walsenders.h"
#include "common/backends.h"

/* the load's connections and in-server clients (engine/pgbench_engine.c, engine/client_worker.c) */

/*
 * A standby whose positions and replies have not moved for this long (on
 * this server's clock), while commits wait for it, is lost; or after
 * wal_sender_timeout when that is shorter.  An idle standby replies every
 * wal_receiver_status_interval (10 s by default).
 */
#define WP_STANDBY_SILENT_MS	15000

/* what each walsender showed last, and when it last moved (this server's clock) */
typedef struct WpWalSndSeen
{
	int			pid;
	XLogRecPtr	write;
	XLogRecPtr	flush;
	XLogRecPtr	apply;
	TimestampTz reply_time;
	TimestampTz moved_at;
} WpWalSndSeen;

static WpWalSndSeen *wp_seen = NULL;

/*
 * Whether a synchronous_commit value makes a commit wait for the standbys
 * synchronous_standby_names names: on (and its spellings), remote_write
 * and remote_apply; not off or local.
 */
bool
wp_level_waits(const char *v)
{
	bool		b;

	if (v == NULL || pg_strcasecmp(v, "local") == 0)
		return false;
	if (parse_bool(v, &b))
		return b;
	return true;
}

static char *wp_sync_commit_default = NULL;

/*
 * The clients' synchronous_commit when the step does not set it: what a new
 * session of the sweep's role gets (the coordinator's own is set to local
 * by wp_repl_coordinator_begin).
 */
const char *
wp_default_sync_commit(void)
{
	return wp_sync_commit_default ? wp_sync_commit_default :
		GetConfigOption("synchronous_commit", false, false);
}

/*
 * The coordinator's own commits (its result rows) never wait for a
 * standby: a lost standby must not hang the process that watches for it.
 * Its rows are flushed locally, as with synchronous_commit = on alone.
 */
void
wp_repl_coordinator_begin(void)
{
	wp_sync_commit_default = MemoryContextStrdup(TopMemoryContext,
												 GetConfigOption("synchronous_commit", false, false));
	SetConfigOption("synchronous_commit", "local", PGC_USERSET, PGC_S_SESSION);
}

/*
 * The application_name of a backend, "" when it has none or is gone.  The
 * caller clears the statistics snapshot when it wants a fresh one.
 */
static void
wp_appname_of(int pid, char *dst, Size size)
{
	int			n = pgstat_fetch_stat_numbackends();

	dst[0] = '\0';
	for (int i = 1; i <= n; i++)
	{
		LocalPgBackendStatus *local = wp_local_beentry(i);

		if (local != NULL && local->backendStatus.st_procpid == pid)
		{
			strlcpy(dst, local->backendStatus.st_appname, size);
			return;
		}
	}
}

/* One walsender, copied under its spinlock. */
typedef struct WpWalSnd
{
	int			pid;
	WalSndState state;
	XLogRecPtr	sent;
	XLogRecPtr	write;
	XLogRecPtr	flush;
	XLogRecPtr	apply;
	TimeOffset	write_lag;
	TimeOffset	flush_lag;
	TimeOffset	apply_lag;
	int			priority;
	TimestampTz reply_time;
} WpWalSnd;

static bool
wp_walsnd_read(int i, WpWalSnd *w)
{
	WalSnd	   *walsnd = &WalSndCtl->walsnds[i];

	SpinLockAcquire(&walsnd->mutex);
	w->pid = walsnd->pid;
	w->state = walsnd->state;
	w->sent = walsnd->sentPtr;
	w->write = walsnd->write;
	w->flush = walsnd->flush;
	w->apply = walsnd->apply;
	w->write_lag = walsnd->writeLag;
	w->flush_lag = walsnd->flushLag;
	w->apply_lag = walsnd->applyLag;
	w->priority = walsnd->sync_standby_priority;
	w->reply_time = walsnd->replyTime;
	SpinLockRelease(&walsnd->mutex);
	return w->pid != 0;
}

static const char *
wp_walsnd_state_name(WalSndState state)
{
	switch (state)
	{
		case WALSNDSTATE_STARTUP:
			return "startup";
		case WALSNDSTATE_BACKUP:
			return "backup";
		case WALSNDSTATE_CATCHUP:
			return "catchup";
		case WALSNDSTATE_STREAMING:
			return "streaming";
		case WALSNDSTATE_STOPPING:
			return "stopping";
	}
	return "?";
}

/* Whether any walsender runs. */
static bool
wp_have_walsenders(void)
{
	if (WalSndCtl == NULL)
		return false;
	for (int i = 0; i < max_wal_senders; i++)
		if (WalSndCtl->walsnds[i].pid != 0)
			return true;
	return false;
}

/*
 * Whether commits can wait for a standby now: synchronous_standby_names
 * names some (as this process last read the configuration) and walsenders
 * run.  The sampler's fast tick runs only then.
 */
bool
wp_syncrep_possible(void)
{
	return SyncRepConfig != NULL && wp_have_walsenders();
}

/*
 * How many processes wait in IPC:SyncRep right now (PGPROC's
 * wait_event_info, read without a lock as pg_stat_activity does).
 */
int
wp_syncrep_waiting(void)
{
	int			n = 0;

	for (uint32 i = 0; i < ProcGlobal->allProcCount; i++)
	{
		PGPROC	   *proc = &ProcGlobal->allProcs[i];

		if (proc->pid != 0 &&
			*((volatile uint32 *) &proc->wait_event_info) == WAIT_EVENT_SYNC_REP)
			n++;
	}
	return n;
}


/*
 * Whether walsender `i` has been silent too long: none of its positions
 * nor its reply time moved for WP_STANDBY_SILENT_MS (wal_sender_timeout
 * when shorter), on this server's clock (the reply time is the standby's).
 */
static bool
wp_walsnd_silent(int i, const WpWalSnd *w, TimestampTz now)
{
	WpWalSndSeen *seen;
	int			limit = WP_STANDBY_SILENT_MS;

	if (wp_seen == NULL)
		wp_seen = MemoryContextAllocZero(TopMemoryContext, sizeof(WpWalSndSeen) * max_wal_senders);
	seen = &wp_seen[i];
	if (seen->pid != w->pid || seen->write != w->write || seen->flush != w->flush ||
		seen->apply != w->apply || seen->reply_time != w->reply_time || seen->moved_at == 0)
	{
		seen->pid = w->pid;
		seen->write = w->write;
		seen->flush = w->flush;
		seen->apply = w->apply;
		seen->reply_time = w->reply_time;
		seen->moved_at = now;
		return false;
	}
	if (wal_sender_timeout > 0 && wal_sender_timeout < limit)
		limit = wal_sender_timeout;
	return TimestampDifferenceExceeds(seen->moved_at, now, limit);
}

/*
 * How many walsenders could serve as a synchronous standby of `cfg` right
 * now: streaming, with a flush position, and answering (a reply within
 * WP_REPLY_STALE_MS, checked only when `stale_matters`); with `by_name`,
 * named in cfg (for a value not in effect yet), else as their own
 * priority says (the one in effect).  Names of the others go to `seen`.
 */
int
wp_standbys_able(const SyncRepConfigData *cfg, bool by_name, bool stale_matters,
				 StringInfo seen)
{
	int			able = 0;
	TimestampTz now = GetCurrentTimestamp();

	if (WalSndCtl == NULL)
		return 0;
	/* names are read from the backends' status, only where needed */
	if (by_name || seen)
		pgstat_clear_snapshot();
	for (int i = 0; i < max_wal_senders; i++)
	{
		WpWalSnd	w;
		bool		named;
		bool		silent;
		char		name[NAMEDATALEN];

		if (!wp_walsnd_read(i, &w))
			continue;
		name[0] = '\0';
		if (by_name || seen)
			wp_appname_of(w.pid, name, sizeof(name));
		if (by_name)
		{
			const char *m = cfg->member_names;

			named = false;
			for (int k = 0; k < cfg->nmembers; k++, m += strlen(m) + 1)
				if (strcmp(m, "*") == 0 || pg_strcasecmp(m, name) == 0)
					named = true;
		}
		else
			named = w.priority > 0;
		/* followed at every look, so that "silent" counts from its last move */
		silent = wp_walsnd_silent(i, &w, now);
		if (named && w.state == WALSNDSTATE_STREAMING && !XLogRecPtrIsInvalid(w.flush) &&
			(!stale_matters || !silent))
			able++;
		else if (seen)
			appendStringInfo(seen, "%s%s (%s%s)", seen->len > 0 ? ", " : "",
							 name[0] ? name : "?", wp_walsnd_state_name(w.state),
							 !named ? ", not named" :
							 w.state == WALSNDSTATE_STREAMING ? ", not answering" : "");
	}
	return able;
}

/*
 * Whether commits that wait for standbys, under the synchronous_standby_names
 * in effect in this process, have enough of them to answer.  True when it
 * names none (commits then wait for none).  Otherwise why not in *why.
 */
bool
wp_syncrep_ready_now(char **why)
{
	StringInfoData seen;
	int			able;
	bool		waiting;

	if (SyncRepConfig == NULL || SyncRepConfig->num_sync <= 0)
		return true;
	waiting = wp_syncrep_waiting() > 0;
	if (wp_standbys_able(SyncRepConfig, false, waiting, NULL) >= SyncRepConfig->num_sync)
		return true;
	/* not there: look again, naming what the walsenders show */
	initStringInfo(&seen);
	able = wp_standbys_able(SyncRepConfig, false, waiting, &seen);
	if (able >= SyncRepConfig->num_sync)
		return true;
	if (why)
		*why = psprintf("%d of the %d synchronous standbys synchronous_standby_names asks for %s connected, streaming and answering (walsenders: %s)",
						able, SyncRepConfig->num_sync, able == 1 ? "is" : "are",
						seen.len > 0 ? seen.data : "none");
	return false;
}


/*
 * End the waits of the load's commits for a standby: its backends waiting
 * in IPC:SyncRep are terminated.  Their commits are durable locally; the
 * standby may not have them.  Only after the load was stopped: no client is
 * then waiting for their answer.  Returns how many were signalled.
 */
int
wp_syncrep_release(Oid roleid)
{
	int			released = wp_load_backends(roleid, true, true);

	if (released > 0)
		ereport(LOG,
				(errmsg("walpressure ended the wait of %d of the load's commits for a lost standby",
						released),
				 errdetail("Their transactions are committed locally; the standby may not have them.")));
	return released;
}

/* How many of the load's backends wait for a standby now. */
int
wp_load_syncrep_waiting(Oid roleid)
{
	return wp_load_backends(roleid, true, false);
}

/*
 * After the load was cut because its standby was lost: terminate every
 * backend of the load that is still there, waiting or about to wait (one
 * still flushing its commit locally enters the wait after a first look),
 * until none is left or `ms` passed.
 */
void
wp_load_end(Oid roleid, long ms)
{
	TimestampTz deadline = TimestampTzPlusMilliseconds(GetCurrentTimestamp(), ms);
	int			total = 0;
	int			n;

	while ((n = wp_load_backends(roleid, false, true)) > 0 && GetCurrentTimestamp() < deadline)
	{
		total += n;
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 50, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
	if (total > 0)
		ereport(LOG,
				(errmsg("walpressure ended the load's backends after its synchronous standby was lost"),
				 errdetail("Commits they had made are durable locally; the standby may not have them.")));
}

/* A lag in ms, < 0 when the standby has not reported one. */
static double
wp_lag_ms(TimeOffset lag)
{
	return lag < 0 ? -1 : (double) lag / 1000.0;
}

static void
wp_lag_add(double ms, int *n, double *sum, double *max)
{
	if (ms < 0)
		return;
	(*n)++;
	*sum += ms;
	if (ms > *max)
		*max = ms;
}

/*
 * Sync state as pg_stat_replication gives it, for the walsender `pid`.
 */
static const char *
wp_sync_state(int pid, int priority, SyncRepStandbyData *sync, int nsync)
{
	if (priority == 0)
		return "async";
	for (int i = 0; i < nsync; i++)
		if (sync[i].pid == pid)
			return SyncRepConfig != NULL && SyncRepConfig->syncrep_method == SYNC_REP_QUORUM ?
				"quorum" : "sync";
	return "potential";
}

/*
 * One second of the window: each walsender's lags and distance, added to
 * its figure (found by pid, or a new one).
 */
void
wp_standbys_sample(WpStandbyFig *figs, int *nfigs)
{
	SyncRepStandbyData *sync = NULL;
	int			nsync;

	if (WalSndCtl == NULL)
		return;
	pgstat_clear_snapshot();
	nsync = SyncRepGetCandidateStandbys(&sync);
	for (int i = 0; i < max_wal_senders; i++)
	{
		WpWalSnd	w;
		WpStandbyFig *f = NULL;

		if (!wp_walsnd_read(i, &w))
			continue;
		for (int k = 0; k < *nfigs; k++)
			if (figs[k].pid == w.pid)
				f = &figs[k];
		if (f == NULL)
		{
			if (*nfigs >= WP_STANDBYS_MAX)
				continue;
			f = &figs[(*nfigs)++];
			memset(f, 0, sizeof(*f));
			f->pid = w.pid;
			wp_appname_of(w.pid, f->name, sizeof(f->name));
		}
		f->samples++;
		strlcpy(f->sync_state, wp_sync_state(w.pid, w.priority, sync, nsync),
				sizeof(f->sync_state));
		wp_lag_add(wp_lag_ms(w.write_lag), &f->nwrite, &f->write_lag_ms_sum, &f->write_lag_ms_max);
		wp_lag_add(wp_lag_ms(w.flush_lag), &f->nflush, &f->flush_lag_ms_sum, &f->flush_lag_ms_max);
		wp_lag_add(wp_lag_ms(w.apply_lag), &f->nreplay, &f->replay_lag_ms_sum, &f->replay_lag_ms_max);
		if (!XLogRecPtrIsInvalid(w.apply) && w.sent >= w.apply)
		{
			double		behind = (double) (w.sent - w.apply);

			f->behind_bytes_sum += behind;
			if (behind > f->behind_bytes_max)
				f->behind_bytes_max = behind;
		}
	}
	if (sync)
		pfree(sync);
}

/*
 * At the window's end: a standby whose walsender went away during the
 * window keeps what it showed, marked.
 */
void
wp_standbys_finish(WpStandbyFig *figs, int nfigs)
{
	for (int k = 0; k < nfigs; k++)
	{
		bool		there = false;

		for (int i = 0; WalSndCtl != NULL && i < max_wal_senders; i++)
			if (WalSndCtl->walsnds[i].pid == figs[k].pid)
				there = true;
		if (!there)
			strlcpy(figs[k].sync_state, "gone", sizeof(figs[k].sync_state));
	}
}

/*-------------------------------------------------------------------------
 *
 * compat.h
 *		Small shims over the server APIs walpressure touches that changed
 *		between PostgreSQL 15 and 18.
 *
 * Version differences live here and nowhere else.  PostgreSQL 15 is the
 * target and the only version the test suite builds against; the 16-18
 * branches follow the release notes and headers of those versions:
 *	- 16 made PendingWalStats a PgStat_PendingWalStats with instr_time times;
 *	- 17 replaced MyProc->pgprocno by MyProcNumber and moved checkpoint
 *	  counts to PgStat_CheckpointerStats.num_timed/num_requested;
 *	- 18 moved WAL I/O counts and times to pg_stat_io (PendingWalStats is
 *	  gone), so a commit can no longer tell whether its backend fsynced.
 *
 * IDENTIFICATION
 *	  src/compat.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_COMPAT_H
#define WALPRESSURE_COMPAT_H

#include "pgstat.h"
#include "storage/proc.h"
#include "utils/wait_event.h"

/* Index of this process's PGPROC, the key of its probe slot. */
static inline int
wp_my_procno(void)
{
#if PG_VERSION_NUM >= 170000
	return MyProcNumber;
#else
	return MyProc != NULL ? MyProc->pgprocno : -1;
#endif
}

/* The wait event class of a buffer pin wait (renamed in 17). */
#if PG_VERSION_NUM >= 170000
#define WP_WAIT_BUFFER_PIN PG_WAIT_BUFFERPIN
#else
#define WP_WAIT_BUFFER_PIN PG_WAIT_BUFFER_PIN
#endif

/* Does this server count a backend's own WAL fsyncs where we can see them? */
#if PG_VERSION_NUM >= 180000
#define WP_HAVE_PENDING_WAL_SYNC 0
#else
#define WP_HAVE_PENDING_WAL_SYNC 1
#endif

/* WAL fsyncs this backend did that are not yet flushed to pg_stat_wal. */
static inline uint64
wp_pending_wal_syncs(void)
{
#if WP_HAVE_PENDING_WAL_SYNC
	return (uint64) PendingWalStats.wal_sync;
#else
	return 0;
#endif
}

/* Their total time in microseconds (zero unless track_wal_io_timing). */
static inline uint64
wp_pending_wal_sync_us(void)
{
#if PG_VERSION_NUM >= 180000
	return 0;
#elif PG_VERSION_NUM >= 160000
	return (uint64) INSTR_TIME_GET_MICROSEC(PendingWalStats.wal_sync_time);
#else
	return (uint64) PendingWalStats.wal_sync_time;
#endif
}

/* Server-wide WAL counters of pg_stat_wal, times in microseconds. */
static inline void
wp_read_wal_stats(int64 *records, int64 *fpi, uint64 *bytes,
				  int64 *buffers_full, int64 *writes, int64 *syncs,
				  int64 *write_us, int64 *sync_us)
{
	PgStat_WalStats *w = pgstat_fetch_stat_wal();

#if PG_VERSION_NUM >= 180000
	*records = w->wal_counters.wal_records;
	*fpi = w->wal_counters.wal_fpi;
	*bytes = w->wal_counters.wal_bytes;
	*buffers_full = w->wal_counters.wal_buffers_full;
	/* 18 reports WAL writes and syncs in pg_stat_io only */
	*writes = 0;
	*syncs = 0;
	*write_us = 0;
	*sync_us = 0;
#else
	*records = w->wal_records;
	*fpi = w->wal_fpi;
	*bytes = w->wal_bytes;
	*buffers_full = w->wal_buffers_full;
	*writes = w->wal_write;
	*syncs = w->wal_sync;
	*write_us = w->wal_write_time;
	*sync_us = w->wal_sync_time;
#endif
}

/* Checkpoints started by timeout and by request since stats reset. */
static inline void
wp_read_checkpoints(int64 *timed, int64 *requested, double *write_ms, double *sync_ms)
{
	PgStat_CheckpointerStats *c = pgstat_fetch_stat_checkpointer();

#if PG_VERSION_NUM >= 170000
	*timed = c->num_timed;
	*requested = c->num_requested;
	*write_ms = c->write_time;
	*sync_ms = c->sync_time;
#else
	*timed = c->timed_checkpoints;
	*requested = c->requested_checkpoints;
	*write_ms = c->checkpoint_write_time;
	*sync_ms = c->checkpoint_sync_time;
#endif
}

/*
 * When pg_stat_wal and the checkpointer's statistics were last reset
 * (pg_stat_reset_shared): a step whose window spans a reset cannot take a
 * difference of them.  Before 17 the checkpointer's counts are reset with
 * the bgwriter's, under its timestamp.
 */
static inline void
wp_read_stats_resets(TimestampTz *wal, TimestampTz *checkpointer)
{
	*wal = pgstat_fetch_stat_wal()->stat_reset_timestamp;
#if PG_VERSION_NUM >= 170000
	*checkpointer = pgstat_fetch_stat_checkpointer()->stat_reset_timestamp;
#else
	*checkpointer = pgstat_fetch_stat_bgwriter()->stat_reset_timestamp;
#endif
}

#endif							/* WALPRESSURE_COMPAT_H */

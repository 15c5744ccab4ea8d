/*-------------------------------------------------------------------------
 *
 * compat.h
 *		Small shims over the server APIs walpressure touches that changed
 *		between PostgreSQL 15 and 19.
 *
 * Version differences live here and nowhere else.  The test suites build
 * and run against 15, 16, 17, 18 and 19:
 *	- 16 made PendingWalStats a PgStat_PendingWalStats with instr_time times,
 *	  replaced pg_proc_aclcheck by object_aclcheck, and renamed
 *	  pgstat_fetch_stat_local_beentry;
 *	- 17 replaced MyProc->pgprocno by MyProcNumber, renamed the BufferPin
 *	  wait class, and moved checkpoint counts to
 *	  PgStat_CheckpointerStats.num_timed/num_requested;
 *	- 18 moved WAL I/O counts and times to pg_stat_io (PendingWalStats is
 *	  gone): a backend's own fsyncs are read from its per-backend I/O
 *	  statistics, the server's from pg_stat_io's wal rows;
 *	- 19 made the BufferPin wait class Buffer (buffer content locks wait
 *	  there too) and renamed CHECKPOINT_IMMEDIATE to CHECKPOINT_FAST.
 *
 * IDENTIFICATION
 *	  src/compat.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_COMPAT_H
#define WALPRESSURE_COMPAT_H

#include "miscadmin.h"
#include "pgstat.h"
#include "catalog/pg_foreign_server.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_proc.h"
#include "storage/proc.h"
#include "utils/acl.h"
#include "utils/backend_status.h"
#include "utils/guc.h"
#include "utils/wait_event.h"
#include "access/xlogreader.h"
#if PG_VERSION_NUM >= 180000
#include "utils/pgstat_internal.h"
#endif

/* May the role execute the function?  (16 made the checks per class.) */
static inline AclResult
wp_proc_aclcheck(Oid fn, Oid roleid, AclMode mode)
{
#if PG_VERSION_NUM >= 160000
	return object_aclcheck(ProcedureRelationId, fn, roleid, mode);
#else
	return pg_proc_aclcheck(fn, roleid, mode);
#endif
}

/* May the role use the schema so?  (16 made the checks per class.) */
static inline AclResult
wp_namespace_aclcheck(Oid nsp, Oid roleid, AclMode mode)
{
#if PG_VERSION_NUM >= 160000
	return object_aclcheck(NamespaceRelationId, nsp, roleid, mode);
#else
	return pg_namespace_aclcheck(nsp, roleid, mode);
#endif
}

/* May the role use the foreign server?  (16 made the checks per class.) */
static inline AclResult
wp_foreign_server_aclcheck(Oid srv, Oid roleid, AclMode mode)
{
#if PG_VERSION_NUM >= 160000
	return object_aclcheck(ForeignServerRelationId, srv, roleid, mode);
#else
	return pg_foreign_server_aclcheck(srv, roleid, mode);
#endif
}

/*
 * pq_check_connection (14 on, unchanged to 19): is the client's socket still
 * open?  Declared here because its header, libpq/libpq.h, includes
 * libpq-be.h, which needs the GSSAPI headers on a server built with GSSAPI
 * (Debian's are) and a build machine may lack them.
 */
extern bool pq_check_connection(void);

/* The i-th (from 1) entry of the backend status array (renamed in 16.0). */
static inline LocalPgBackendStatus *
wp_local_beentry(int i)
{
#if PG_VERSION_NUM >= 160000
	return pgstat_get_local_beentry_by_index(i);
#else
	return pgstat_fetch_stat_local_beentry(i);
#endif
}

/* Free what a GUC check hook allocated as its extra (16: GUC memory). */
static inline void
wp_guc_free(void *p)
{
#if PG_VERSION_NUM >= 160000
	guc_free(p);
#else
	free(p);
#endif
}

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

/*
 * The wait event class of a buffer pin wait (renamed in 17).  19 calls the
 * class Buffer (the same value) and counts buffer content lock waits in it
 * too, which earlier majors count as LWLock waits: either way, a wait the
 * sampler counts among the others.
 */
#if PG_VERSION_NUM >= 190000
#define WP_WAIT_BUFFER_PIN PG_WAIT_BUFFER
#elif PG_VERSION_NUM >= 170000
#define WP_WAIT_BUFFER_PIN PG_WAIT_BUFFERPIN
#else
#define WP_WAIT_BUFFER_PIN PG_WAIT_BUFFER_PIN
#endif

/*
 * RequestCheckpoint()'s "as fast as possible" flag: 19 renamed
 * CHECKPOINT_IMMEDIATE to CHECKPOINT_FAST (the same bit, 0x0004), with
 * CHECKPOINT (MODE FAST); the old name stays usable here.
 */
#if PG_VERSION_NUM >= 190000 && !defined(CHECKPOINT_IMMEDIATE)
#define CHECKPOINT_IMMEDIATE CHECKPOINT_FAST
#endif

/*
 * A switch case that goes on into the next: 19 builds extensions with
 * -Wimplicit-fallthrough=5, where only the attribute (pg_fallthrough, new in
 * 19) says so, no comment.
 */
#ifndef pg_fallthrough
#if defined(__has_attribute)
#if __has_attribute(fallthrough)
#define pg_fallthrough __attribute__((fallthrough))
#endif
#endif
#ifndef pg_fallthrough
#define pg_fallthrough ((void) 0)
#endif
#endif

/* SIG_IGN for pqsignal(): 19's handlers take a pg_signal_info too. */
#ifdef PG_SIG_IGN
#define WP_SIG_IGN PG_SIG_IGN
#else
#define WP_SIG_IGN SIG_IGN
#endif

/* The first record at or after a position (19 reports why there is none). */
static inline XLogRecPtr
wp_find_next_record(XLogReaderState *reader, XLogRecPtr start, char **errormsg)
{
#if PG_VERSION_NUM >= 190000
	return XLogFindNextRecord(reader, start, errormsg);
#else
	*errormsg = NULL;
	return XLogFindNextRecord(reader, start);
#endif
}

/*
 * This backend's WAL fsyncs so far, and their time in microseconds (zero
 * unless track_wal_io_timing).  The probe reads them before and after a
 * commit's WAL flush: the difference is the fsyncs this backend did for it.
 *
 * Up to 17 they are the backend's pending pg_stat_wal counts
 * (PendingWalStats), which are flushed only outside a transaction, so the
 * difference across a commit is exact.
 *
 * 18 counts a WAL fsync only in pg_stat_io (issue_xlog_fsync calls
 * pgstat_count_io_op_time for IOOBJECT_WAL, IOCONTEXT_NORMAL, IOOP_FSYNC),
 * whose pending counts are static to pgstat_io.c and pgstat_backend.c.
 * pgstat_backend.c also keeps them per backend in a shared entry that only
 * this backend writes: flushing this backend's pending I/O into it
 * (pgstat_flush_backend, as pgstat_report_stat does) and reading the
 * entry gives the same exact counts.  The entry reference is cached by the
 * first call (in PRE_COMMIT), so the call after the commit neither
 * allocates nor fails; it takes the entry's own lock, which only a reader
 * of pg_stat_get_backend_io() for this backend shares.
 */
#if PG_VERSION_NUM >= 180000
#define WP_BACKEND_WAL_SYNCS_CHEAP 0
#else
#define WP_BACKEND_WAL_SYNCS_CHEAP 1
#endif

static inline void
wp_backend_wal_syncs(uint64 *syncs, uint64 *sync_us)
{
#if PG_VERSION_NUM >= 180000
	PgStat_EntryRef *ref;
	PgStat_BktypeIO *io;

	*syncs = *sync_us = 0;
	if (!pgstat_tracks_backend_bktype(MyBackendType))
		return;
	(void) pgstat_flush_backend(false, PGSTAT_BACKEND_FLUSH_IO);
	ref = pgstat_get_entry_ref(PGSTAT_KIND_BACKEND, InvalidOid, MyProcNumber, false, NULL);
	if (ref == NULL || ref->shared_stats == NULL)
		return;
	io = &((PgStatShared_Backend *) ref->shared_stats)->stats.io_stats;
	*syncs = (uint64) io->counts[IOOBJECT_WAL][IOCONTEXT_NORMAL][IOOP_FSYNC];
	*sync_us = (uint64) io->times[IOOBJECT_WAL][IOCONTEXT_NORMAL][IOOP_FSYNC];
#elif PG_VERSION_NUM >= 160000
	*syncs = (uint64) PendingWalStats.wal_sync;
	*sync_us = (uint64) INSTR_TIME_GET_MICROSEC(PendingWalStats.wal_sync_time);
#else
	*syncs = (uint64) PendingWalStats.wal_sync;
	*sync_us = (uint64) PendingWalStats.wal_sync_time;
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
	/* 18 counts WAL writes and syncs in pg_stat_io only: its wal rows */
	{
		PgStat_IO  *io = pgstat_fetch_stat_io();

		*writes = *syncs = *write_us = *sync_us = 0;
		for (int t = 0; t < BACKEND_NUM_TYPES; t++)
		{
			PgStat_BktypeIO *b = &io->stats[t];

			*writes += b->counts[IOOBJECT_WAL][IOCONTEXT_NORMAL][IOOP_WRITE];
			*syncs += b->counts[IOOBJECT_WAL][IOCONTEXT_NORMAL][IOOP_FSYNC];
			*write_us += b->times[IOOBJECT_WAL][IOCONTEXT_NORMAL][IOOP_WRITE];
			*sync_us += b->times[IOOBJECT_WAL][IOCONTEXT_NORMAL][IOOP_FSYNC];
		}
	}
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
 * Data-file buffers written: by the checkpointer, by the background writer,
 * and by every other process (backends, pgbench's connections, autovacuum),
 * with those processes' own fsyncs (when the checkpointer's queue was full),
 * and when these counts were last reset.  Before 17 pg_stat_bgwriter's
 * buffers_checkpoint / buffers_clean / buffers_backend /
 * buffers_backend_fsync; from 17 the checkpointer's buffers_written, the
 * bgwriter's buffers_clean and pg_stat_io's writes and fsyncs of relations
 * by the other process types.
 */
static inline void
wp_read_buffer_writes(int64 *ckpt, int64 *clean, int64 *backend, int64 *backend_fsync,
					  TimestampTz *reset_at)
{
	PgStat_CheckpointerStats *c = pgstat_fetch_stat_checkpointer();
	PgStat_BgWriterStats *b = pgstat_fetch_stat_bgwriter();

	*clean = b->buf_written_clean;
#if PG_VERSION_NUM >= 170000
	{
		PgStat_IO  *io = pgstat_fetch_stat_io();

		*ckpt = c->buffers_written;
		*backend = 0;
		*backend_fsync = 0;
		for (int t = 0; t < BACKEND_NUM_TYPES; t++)
		{
			if (t == B_CHECKPOINTER || t == B_BG_WRITER)
				continue;
			for (int ctx = 0; ctx < IOCONTEXT_NUM_TYPES; ctx++)
			{
				*backend += io->stats[t].counts[IOOBJECT_RELATION][ctx][IOOP_WRITE];
				*backend_fsync += io->stats[t].counts[IOOBJECT_RELATION][ctx][IOOP_FSYNC];
			}
		}
		*reset_at = Max(Max(b->stat_reset_timestamp, io->stat_reset_timestamp),
						c->stat_reset_timestamp);
	}
#else
	*ckpt = c->buf_written_checkpoints;
	*backend = c->buf_written_backend;
	*backend_fsync = c->buf_fsync_backend;
	*reset_at = b->stat_reset_timestamp;
#endif
}

/*
 * When pg_stat_wal and the checkpointer's statistics were last reset
 * (pg_stat_reset_shared): a step whose window spans a reset cannot take a
 * difference of them.  On 18 the WAL figures are also pg_stat_io's.  Before 17 the checkpointer's counts are reset with
 * the bgwriter's, under its timestamp.
 */
static inline void
wp_read_stats_resets(TimestampTz *wal, TimestampTz *checkpointer)
{
	*wal = pgstat_fetch_stat_wal()->stat_reset_timestamp;
#if PG_VERSION_NUM >= 180000
	/* the WAL fsync and write counts are pg_stat_io's */
	*wal = Max(*wal, pgstat_fetch_stat_io()->stat_reset_timestamp);
#endif
#if PG_VERSION_NUM >= 170000
	*checkpointer = pgstat_fetch_stat_checkpointer()->stat_reset_timestamp;
#else
	*checkpointer = pgstat_fetch_stat_bgwriter()->stat_reset_timestamp;
#endif
}

#endif							/* WALPRESSURE_COMPAT_H */

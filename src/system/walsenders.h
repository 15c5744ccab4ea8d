/*-------------------------------------------------------------------------
 *
 * walsenders.h
 *		Synchronous standbys: what the walsenders show, whether a step's
 *		commits wait for a standby and whether one is there to answer, the
 *		sync-rep wait time the sampler measures, and releasing the load's
 *		commits when the standby is lost (replication.c); the standby's own
 *		side over libpq (standby.c).
 *
 * IDENTIFICATION
 *	  src/system/walsenders.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_REPLICATION_H
#define WALPRESSURE_REPLICATION_H

#include "access/xlogdefs.h"
#include "datatype/timestamp.h"

#include "nodes/pg_list.h"
#include "lib/stringinfo.h"
#include "replication/syncrep.h"

#define WP_STANDBYS_MAX		16	/* standbys recorded per step */

/* One standby over a step's window, from its walsender each second. */
typedef struct WpStandbyFig
{
	char		name[64];		/* application_name */
	char		sync_state[16]; /* at the window's end: sync, quorum, potential, async */
	int			samples;
	int			nwrite,
				nflush,
				nreplay;		/* samples with a lag (the standby had reported one) */
	double		write_lag_ms_sum,
				write_lag_ms_max;
	double		flush_lag_ms_sum,
				flush_lag_ms_max;
	double		replay_lag_ms_sum,
				replay_lag_ms_max;
	double		behind_bytes_sum,	/* sent minus replayed */
				behind_bytes_max;
	int			pid;			/* its walsender's, to follow it */
} WpStandbyFig;

/* The standby's side over a window, from standby_conninfo; < 0: unknown. */
typedef struct WpStandbySide
{
	double		wal_mb_per_s;	/* received and flushed */
	double		wal_writes_per_s;
	double		wal_fsyncs_per_s;
	double		write_iops;
	const char *source;			/* "walpressure", "pg_stat_wal", "pg_stat_io" */
} WpStandbySide;

/* replication.c */
extern bool wp_level_waits(const char *synchronous_commit);
extern const char *wp_default_sync_commit(void);
extern void wp_repl_coordinator_begin(void);
extern bool wp_syncrep_ready_now(char **why);
extern int	wp_syncrep_release(Oid roleid);
extern int	wp_load_syncrep_waiting(Oid roleid);
extern void wp_load_end(Oid roleid, long ms);
extern void wp_standbys_sample(WpStandbyFig *figs, int *nfigs);
extern void wp_standbys_finish(WpStandbyFig *figs, int nfigs);
extern int	wp_syncrep_waiting(void);
extern bool wp_syncrep_possible(void);
extern int	wp_standbys_able(const SyncRepConfigData *cfg, bool by_name, bool stale_matters,
							 StringInfo seen);

/* standby.c */
extern char *wp_conninfo_problem(const char *conninfo);
extern bool wp_standby_reached(const char *conninfo, bool *in_recovery, char **err);
extern void *wp_standby_window_begin(const char *conninfo);
extern void wp_standby_window_end(void *begin, double seconds, WpStandbySide *side);
extern void wp_standby_disconnect(void);
extern char *wp_conninfo_redacted(const char *conninfo);

#endif							/* WALPRESSURE_REPLICATION_H */

/*-------------------------------------------------------------------------
 *
 * walsenders.h
 *		Synchronous standbys: what the walsenders show, whether a step's
 *		commits wait for a standby and whether one is there to answer, the
 *		sync-rep wait time the sampler measures, and releasing the load's
 *		commits when the standby is lost (walsenders.c); the standby's own
 *		side over libpq (standby_link.c).
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

#endif							/* WALPRESSURE_REPLICATION_H */

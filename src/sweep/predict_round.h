/*-------------------------------------------------------------------------
 *
 * predict_round.h
 *		One round's prediction at another cap and number of clients, for
 *		predict() (predict_round.c, pure).
 *
 * IDENTIFICATION
 *	  src/sweep/predict_round.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_PREDICT_ROUND_H
#define WALPRESSURE_PREDICT_ROUND_H

#include "sweep/group_commit.h"

/* A round (a step that counts) and its sweep, as measured. */
typedef struct WpPrRound
{
	int			clients;
	double		tps;
	double		commit_avg_ms;
	double		server_cpu_s;
	double		client_cpu_s;	/* 0 where not measured */
	double		transactions;	/* above 0 */
	double		commits;
	double		wal_fsyncs;		/* above 0 */
	double		write_iops;
	double		wal_fsyncs_per_s;	/* above 0 */
	double		fsync_avg_ms;
	double		cpus;			/* the sweep's */
	bool		paced;			/* the sweep's disk is the paced one */
} WpPrRound;

/* Where: from cap0 and n0 clients (the value's) to cap c1 and n1 clients. */
typedef struct WpPrAt
{
	int			cap0;
	int			n0;
	int			c1;
	int			n1;
	double		delay_s;		/* commit_delay in effect, seconds */
	double		own;			/* the disk's own flush time, seconds; NAN: unknown */
} WpPrAt;

/* The round's prediction; NAN where there is none. */
typedef struct WpPrOut
{
	double		tps;
	double		tps_alt;		/* the commits a flush carries held as measured */
	double		g;				/* commits a flush carries */
	double		commit_ms;
	double		latency_ms;
	double		write_iops;
	double		cpu_share;
	double		flush_busy;		/* the share of the time the disk flushes */
	bool		fitted;
} WpPrOut;

/* What wp_pr_begin derives from the round for wp_pr_finish. */
typedef struct WpPrFit
{
	WpGcStep	step;			/* the measured step, as the loop takes it */
	double		f1;				/* a flush's cost at the new cap, seconds; NAN: none */
	double		k;				/* write IOs a flush cycle cost */
	double		g0;				/* commits a flush carried */
} WpPrFit;

extern const char *wp_pr_begin(const WpPrRound *r, const WpPrAt *at, WpPrFit *fit);
extern void wp_pr_finish(const WpPrRound *r, const WpPrAt *at, const WpPrFit *fit, WpPrOut *out);

#endif							/* WALPRESSURE_PREDICT_ROUND_H */

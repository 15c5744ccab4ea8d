/*-------------------------------------------------------------------------
 *
 * load.h
 *		What a step asks of its load (WpLoadSpec, built by load.c from the
 *		request and the step's value), and what a load engine reports of
 *		it: its totals at an instant, and one second of its own figures.
 *
 * IDENTIFICATION
 *	  src/sweep/load.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_LOAD_H
#define WALPRESSURE_LOAD_H

#include "common/histogram.h"
#include "sweep/request.h"

/* What a step asks of the load. */
typedef struct WpLoadSpec
{
	Oid			dboid;			/* where and as whom the clients connect */
	Oid			roleoid;
	WpWorkload	workload;
	int			clients;
	int			batch_size;
	int			round_trip_us;	/* backend engine: emulated round trip */
	char		protocol[16];	/* pgbench engine: --protocol, "": its default */
	double		rate;			/* pgbench engine: --rate (tps), 0: closed loop */
	double		latency_limit_ms;	/* pgbench engine: --latency-limit, 0: none */
	int			scale;
	int			nsettings;		/* session settings, each one GUC value */
	WpSetting	settings[WP_MAX_FIXED + WP_CONFIG_MAX];
	char		search_path[WP_TEXT_MAX];
	char		sql[WP_SQL_MAX];
} WpLoadSpec;

/* The clients' counters summed at one instant. */
typedef struct WpLoadTotals
{
	uint64		txns;
	uint64		retries;
	double		latency_ms;		/* sum of committed transactions' times */
	double		latency_sq_ms;	/* sum of their squares */
	WpHistSnap	hist;
	/* open loop (pgbench's --rate): each transaction's schedule lag */
	uint64		skipped;		/* not started: later than the latency limit */
	uint64		late;			/* ended above the latency limit */
	double		lag_ms;			/* sum of the committed transactions' lags */
	WpHistSnap	lag_hist;
} WpLoadTotals;

/* Waits `ms` watching the step; false when the sweep was cancelled. */
typedef bool (*WpWaitFn) (long ms);

/* One second of the clients' own figures. */
typedef struct WpLoadSecond
{
	double		tps;
	double		latency_p50_ms; /* < 0: none */
	double		latency_p99_ms;
} WpLoadSecond;

extern void wp_load_spec(const WpSweepRequest *req, int pos, Oid dboid, Oid roleoid,
						 WpLoadSpec *spec);

#endif							/* WALPRESSURE_LOAD_H */

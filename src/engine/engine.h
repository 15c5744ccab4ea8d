/*-------------------------------------------------------------------------
 *
 * engine.h
 *		The load engine interface a step drives, and its backend engine:
 *		in-server client workers (backend_engine.c starts, watches and stops them;
 *		client_worker.c is the worker).
 *
 * An engine starts N clients with the step's session settings and
 * workload, reports whether they still run, brings the server's statistics
 * up to date with what they did, sums their counters and latency histogram
 * at any instant, and stops them, never leaving one behind.
 *
 * IDENTIFICATION
 *	  src/engine/engine.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_CLIENTS_H
#define WALPRESSURE_CLIENTS_H

#include "datatype/timestamp.h"
#include "fmgr.h"
#include "port/atomics.h"

#include "common/histogram.h"
#include "sweep/load.h"

typedef struct WpLoadEngine
{
	const char *name;
	/* start the load; it must last at least run_s seconds */
	void		(*start) (const WpLoadSpec *spec, double run_s);
	/*
	 * ERROR if the load failed; false if it ended early in a way that keeps
	 * what it did (the step is then cut short and marked, see lost)
	 */
	bool		(*check) (void);
	bool		(*flush) (WpWaitFn wait);	/* statistics current; false: cancelled */
	/* the clients' totals now (an engine that counts only at the end: zeros) */
	void		(*read) (WpLoadTotals *totals);
	/* stop: with finish, let the load end as planned; safe when none runs */
	void		(*stop) (bool finish);
	/* end the load now, keeping what it measured so far (then stop(true)) */
	void		(*cut) (void);
	/* after stop(true): why the load was not clean (lost clients, ended early), NULL: clean */
	const char *(*lost) (void);
	/* the clients' CPU seconds so far; < 0: not theirs to tell (in-server clients are the server's) */
	double		(*cpu_s) (void);

	/*
	 * For an engine that counts only at the end (NULL otherwise), after
	 * stop(true): the totals of the transactions that ended in (start, end],
	 * and, for each of the nmarks seconds ending at marks[i], its figures.
	 */
	void		(*resolve) (TimestampTz start, TimestampTz end, WpLoadTotals *window,
							const TimestampTz *marks, int nmarks, WpLoadSecond *seconds);
} WpLoadEngine;

extern const WpLoadEngine wp_backend_engine;

/*
 * The backend engine's shared block.  One client worker's counters:
 * written only by that client, read by the coordinator while it runs and
 * after it exits.
 */
typedef struct WpClientSlot
{
	pg_atomic_uint64 txns;		/* transactions committed */
	pg_atomic_uint64 retries;	/* serialization failures and deadlocks */
	double		latency_ms;
	double		latency_sq_ms;
	pg_atomic_uint32 flushed_gen;	/* last flush_gen acted upon */
	pg_atomic_uint32 done;		/* 1 when the client left its loop */
	WpHist		hist;			/* transaction latency */
	pg_atomic_uint32 failed;	/* 1 once error and sqlerrcode are set */
	int			sqlerrcode;		/* why it stopped early, and its SQLSTATE */
	char		error[256];
} WpClientSlot;

typedef struct WpClientBlock
{
	pg_atomic_uint32 stop;		/* clients: leave after this transaction */
	pg_atomic_uint32 flush_gen; /* clients: flush statistics now */
	WpLoadSpec	spec;			/* written before the clients start */
	int			nslots;
	WpClientSlot slot[FLEXIBLE_ARRAY_MEMBER];
} WpClientBlock;

extern WpClientBlock *wp_clients;

PGDLLEXPORT void wp_client_main(Datum main_arg);

/* Shared memory (shmem.c). */
extern Size wp_clients_shmem_size(void);
extern void wp_clients_shmem_init(void *block, bool found);

extern void wp_backend_terminate_all(void);

#endif							/* WALPRESSURE_CLIENTS_H */

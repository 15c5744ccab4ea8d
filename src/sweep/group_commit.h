/*-------------------------------------------------------------------------
 *
 * group_commit.h
 *		A commit's wait for the WAL flush that carries it, and a sweep's
 *		closed loop with it, for predict() (group_commit.c, pure).
 *
 * IDENTIFICATION
 *	  src/sweep/group_commit.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_GROUP_COMMIT_H
#define WALPRESSURE_GROUP_COMMIT_H

/* What one step measured, the figures the model is fitted to. */
typedef struct WpGcStep
{
	int			clients;
	double		tps;
	double		commit_s;		/* a commit's mean time (steps.commit_avg_ms) */
	double		cpu_demand;		/* CPU seconds a transaction */
	double		cpus;
	double		delay;			/* commit_delay in effect, seconds */
	double		flush_s;		/* a WAL flush's cost (steps.fsync_avg_ms) */
} WpGcStep;

/* The loop at another flush cost and number of clients. */
typedef struct WpGcOut
{
	double		tps;
	double		commit_s;		/* a commit's wait for its flush */
	double		cpu_s;			/* a transaction's time at the CPUs */
	double		busy;			/* the share of the time a flush cycle runs */
	double		flushes_per_s;
	bool		fitted;			/* the model gave back the step's figures */
} WpGcOut;

/* A flush cycle's share of the time, and the cycles a second. */
typedef struct WpGcCycle
{
	double		busy;
	double		flushes_per_s;
} WpGcCycle;

extern double wp_gc_wait(double z, double tps, int clients, double delay, double flush_s,
						 WpGcCycle *cycle);
extern bool wp_gc_predict(const WpGcStep *step, int clients, double flush_s, WpGcOut *out);

#endif							/* WALPRESSURE_GROUP_COMMIT_H */

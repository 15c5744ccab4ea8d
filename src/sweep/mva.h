/*-------------------------------------------------------------------------
 *
 * mva.h
 *		Mean-value analysis of a sweep's closed loop, for predict()
 *		(mva.c, pure).
 *
 * IDENTIFICATION
 *	  src/sweep/mva.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_MVA_H
#define WALPRESSURE_MVA_H

/*
 * The closed network a sweep's clients make: each transaction queues for
 * cpu_demand seconds on cpus CPUs, then for flush_demand seconds of the WAL
 * flush (one server: a flush's time shared by the commits it carries),
 * and spends delay seconds elsewhere.
 */
typedef struct WpMvaNet
{
	double		cpu_demand;
	double		cpus;
	double		flush_demand;
	double		delay;
} WpMvaNet;

/* What n clients get: throughput, and the time at each queue. */
typedef struct WpMvaOut
{
	double		tps;
	double		flush_s;		/* a commit's time at the flush, waiting included */
	double		cpu_s;
} WpMvaOut;

extern void wp_mva(const WpMvaNet *net, int n, WpMvaOut *out);
extern bool wp_mva_fit(int n, double tps, double commit_s, WpMvaNet *net);
extern bool wp_mva_at(const WpMvaNet *net, int n, double tps, double floor_demand,
					  WpMvaOut *out);

#endif							/* WALPRESSURE_MVA_H */

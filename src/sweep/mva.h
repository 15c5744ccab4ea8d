/*-------------------------------------------------------------------------
 *
 * mva.h
 *		Mean-value analysis of a sweep's closed loop through the server's
 *		CPUs, for predict() (mva.c, pure).
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
 * cpu_demand seconds on cpus CPUs and spends delay seconds elsewhere (its
 * commit's wait for the WAL flush among them: group_commit.c sets it).
 */
typedef struct WpMvaNet
{
	double		cpu_demand;
	double		cpus;
	double		delay;
} WpMvaNet;

typedef struct WpMvaOut
{
	double		tps;
	double		cpu_s;			/* a transaction's time at the CPUs, queueing
								 * included */
} WpMvaOut;

extern void wp_mva(const WpMvaNet *net, int n, WpMvaOut *out);
extern bool wp_mva_fit_delay(WpMvaNet *net, int n, double tps);

#endif							/* WALPRESSURE_MVA_H */

/*-------------------------------------------------------------------------
 *
 * commit_probe.h
 *		The commit probe: a transaction callback in every backend
 *		(commit_probe.c).
 *
 * IDENTIFICATION
 *	  src/live/commit_probe.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_COMMIT_PROBE_H
#define WALPRESSURE_COMMIT_PROBE_H

extern PGDLLIMPORT bool wp_exact_leaders;

extern void wp_probe_register(void);

#endif							/* WALPRESSURE_COMMIT_PROBE_H */

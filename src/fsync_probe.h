/*-------------------------------------------------------------------------
 *
 * fsync_probe.h
 *		probe_fsync(): what one WAL-sized flush costs on pg_wal's disk
 *		(fsync_probe.c).
 *
 * IDENTIFICATION
 *	  src/fsync_probe.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_FSYNC_PROBE_H
#define WALPRESSURE_FSYNC_PROBE_H

extern void wp_fsync_probe_remove_stale(void);

#endif							/* WALPRESSURE_FSYNC_PROBE_H */

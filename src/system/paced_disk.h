/*-------------------------------------------------------------------------
 *
 * paced_disk.h
 *		The paced disk's state in shared memory, its cap and its counters
 *		(paced_disk.c).
 *
 * IDENTIFICATION
 *	  src/system/paced_disk.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_PACED_DISK_H
#define WALPRESSURE_PACED_DISK_H

/* A paced cap: write IOs a second (0: none), a flush's floor, the burst. */
typedef struct WpPacedCap
{
	int64		iops;
	double		floor_us;
	int64		burst;
} WpPacedCap;

extern Size wp_paced_shmem_size(void);
extern void wp_paced_shmem_init(void *block, bool found);
extern bool wp_paced_available(void);
extern char *wp_paced_hint(void);
extern void wp_paced_set(const WpPacedCap *cap);
extern void wp_paced_get(WpPacedCap *cap);
extern bool wp_paced_ios(uint64 *ios);

#endif							/* WALPRESSURE_PACED_DISK_H */

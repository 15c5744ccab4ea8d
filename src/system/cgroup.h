/*-------------------------------------------------------------------------
 *
 * cgroup.h
 *		The cgroup IO controller: modes, the pg_wal device, limits, enrolment
 *		and IO counters (cgroup.c).
 *
 * IDENTIFICATION
 *	  src/system/cgroup.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_CGROUP_H
#define WALPRESSURE_CGROUP_H

#include "nodes/pg_list.h"

#include "system/wal_device.h"

typedef enum WpCgroupMode
{
	WP_CG_NONE,
	WP_CG_V1,
	WP_CG_V2,
	WP_CG_HYBRID				/* v1 blkio beside a v2 mount */
} WpCgroupMode;

extern char *wp_cgroup_name;

extern WpCgroupMode wp_cgroup_mode(void);
extern const char *wp_cgroup_mode_name(WpCgroupMode mode);
extern char *wp_cgroup_problem(WpCgroupMode *mode, char **detail, char **hint);
extern WpCgroupMode wp_cgroup_check(void);
extern void wp_cgroup_set_limits(WpCgroupMode mode, WpDevice dev,
								 int64 write_iops, int64 read_iops);
extern void wp_cgroup_get_limits(WpCgroupMode mode, WpDevice dev,
								 int64 *write_iops, int64 *read_iops);
extern List *wp_server_pids(void);
extern int	wp_cgroup_enroll(WpCgroupMode mode);
extern void wp_cgroup_enrolled(WpCgroupMode mode, int *in, int *total);
extern bool wp_cgroup_self_enrolled(WpCgroupMode mode);
extern bool wp_cgroup_ios(WpCgroupMode mode, WpDevice dev, uint64 *reads, uint64 *writes);

/* for cgroup_procs.c */
extern char * wp_cg2_dir(void);
extern void wp_cg2_write(const char *name, const char *text);
extern char * wp_cgcreate_hint(WpCgroupMode mode);
extern const char * wp_controller(WpCgroupMode mode);
extern bool wp_file_has_word(const char *path, const char *word);

#endif							/* WALPRESSURE_CGROUP_H */

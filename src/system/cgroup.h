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

typedef enum WpCgroupMode
{
	WP_CG_NONE,
	WP_CG_V1,
	WP_CG_V2,
	WP_CG_HYBRID				/* v1 blkio beside a v2 mount */
} WpCgroupMode;

typedef struct WpDevice
{
	unsigned	major;
	unsigned	minor;
} WpDevice;

extern char *wp_cgroup_name;

extern WpCgroupMode wp_cgroup_mode(void);
extern const char *wp_cgroup_mode_name(WpCgroupMode mode);
extern char *wp_cgroup_problem(WpCgroupMode *mode, char **detail, char **hint);
extern WpCgroupMode wp_cgroup_check(void);
extern WpDevice wp_wal_device(const char *override);
extern bool wp_wal_device_try(WpDevice *dev);
extern void wp_cgroup_set_limits(WpCgroupMode mode, WpDevice dev,
								 int64 write_iops, int64 read_iops);
extern void wp_cgroup_get_limits(WpCgroupMode mode, WpDevice dev,
								 int64 *write_iops, int64 *read_iops);
extern List *wp_server_pids(void);
extern int	wp_cgroup_enroll(WpCgroupMode mode);
extern void wp_cgroup_enrolled(WpCgroupMode mode, int *in, int *total);
extern bool wp_cgroup_self_enrolled(WpCgroupMode mode);
extern bool wp_cgroup_ios(WpCgroupMode mode, WpDevice dev, uint64 *reads, uint64 *writes);
extern bool wp_diskstats_ios(WpDevice dev, uint64 *reads, uint64 *writes);

#endif							/* WALPRESSURE_CGROUP_H */

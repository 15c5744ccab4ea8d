/*-------------------------------------------------------------------------
 *
 * policy.h
 *		What a sweep may vary or fix, where each setting applies, which
 *		values can lose data, and the workloads (policy.c).
 *
 * IDENTIFICATION
 *	  src/sweep/policy.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_POLICY_H
#define WALPRESSURE_POLICY_H

/* Where a swept or fixed parameter takes effect. */
typedef enum WpParamKind
{
	WP_PARAM_NONE = 0,			/* not something a sweep may touch */
	WP_PARAM_SESSION,			/* a GUC each client sets for itself */
	WP_PARAM_SERVER,			/* a SIGHUP GUC, ALTER SYSTEM + reload */
	WP_PARAM_LOAD,				/* clients, batch_size, iops_cap, disk, round_trip_us */
	WP_PARAM_CONFIG				/* "settings": each value a set of settings */
} WpParamKind;

/* Workloads a client runs. */
typedef enum WpWorkload
{
	WP_WORKLOAD_SIMPLE_UPDATE,
	WP_WORKLOAD_TPCB_LIKE,
	WP_WORKLOAD_INSERT_ONLY,
	WP_WORKLOAD_BATCH_INSERT,
	WP_WORKLOAD_SELECT_ONLY,
	WP_WORKLOAD_CUSTOM
} WpWorkload;

#define WP_N_WORKLOADS 6

/*
 * What a cap's disk is (run_sweep's and set_iops_cap's disk =>): the paced
 * disk, where every write IO and flush costs its share of the budget in
 * arrival order (walpressure_pacer.so, system/paced_disk.c), or the cgroup's
 * blk-throttle, which lets a 100 ms slice's IOs through at once and stalls
 * the rest to the slice's end (system/cgroup.c).
 */
typedef enum WpDiskModel
{
	WP_DISK_PACED,
	WP_DISK_THROTTLE
} WpDiskModel;

/* The most a paced flush's floor may be (run_sweep's and set_iops_cap's flush_floor_ms, import's check). */
#define WP_FLUSH_FLOOR_MAX_MS	1000.0

extern WpParamKind wp_param_kind(const char *name);
extern const char *wp_param_closest(const char *name);
extern const char *wp_data_loss(const char *name, const char *value);
extern bool wp_workload_from_name(const char *name, WpWorkload *workload);
extern const char *wp_workload_name(WpWorkload workload);
extern char *wp_workload_list(void);
extern char *wp_param_list(WpParamKind kind);
extern int	wp_param_names(WpParamKind a, WpParamKind b, const char **names);
extern int	wp_param_count(void);
extern bool wp_disk_model_from_name(const char *name, WpDiskModel *model);
extern const char *wp_disk_model_name(WpDiskModel model);

#endif							/* WALPRESSURE_POLICY_H */

/*-------------------------------------------------------------------------
 *
 * request.h
 *		A sweep as the caller asked for it, built and validated once, in
 *		C, as the caller (api/run_sweep.c), then copied as it is into shared
 *		memory for the coordinator: never text to be parsed again.
 *
 * IDENTIFICATION
 *	  src/sweep/request.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_REQUEST_H
#define WALPRESSURE_REQUEST_H

#include "sweep/policy.h"

#define WP_NAME_MAX		64		/* a setting's name (NAMEDATALEN) */
#define WP_VALUE_MAX	1024	/* one value of a setting */
#define WP_MAX_VALUES	64		/* values of one sweep */
#define WP_MAX_FIXED	32		/* settings fixed for every step */
#define WP_TEXT_MAX		8192	/* label, search_path, the settings argument */
#define WP_SQL_MAX		32768	/* the custom workload's SQL */
#define WP_SETTINGS_MAX	(WP_SQL_MAX + WP_TEXT_MAX)	/* the settings argument */
#define WP_CONFIG_MAX	16		/* settings of one value of a configuration sweep */
#define WP_CONFIG_POOL	128		/* ... and of all its values together */

/* One setting, name and value, each a single GUC value. */
typedef struct WpSetting
{
	char		name[WP_NAME_MAX];
	char		value[WP_VALUE_MAX];
	WpParamKind kind;			/* WP_PARAM_SESSION or WP_PARAM_SERVER */
} WpSetting;

/*
 * A search over a range of a number setting (run_sweep's range =>) instead
 * of a list of values: which values run is decided as the rounds come in.
 */
typedef enum WpSearchKind
{
	WP_SEARCH_NONE = 0,			/* vals: every value, every round */
	WP_SEARCH_GOLDEN			/* golden-section search over the range's values */
} WpSearchKind;

#define WP_SEARCH_TEXT	64		/* a bound or the resolution, as held */

/* Which load engine runs the clients (engine/engine.h). */
typedef enum WpEngineKind
{
	WP_ENGINE_BACKEND,			/* in-server client workers */
	WP_ENGINE_PGBENCH			/* this server's pgbench */
} WpEngineKind;

typedef struct WpSweepRequest
{
	char		setting[WP_NAME_MAX];	/* the swept parameter, or "settings" */
	WpParamKind kind;			/* WP_PARAM_CONFIG for "settings" */
	int			nvals;
	char		vals[WP_MAX_VALUES][WP_VALUE_MAX];	/* a configuration: its jsonb text */
	int			ivals[WP_MAX_VALUES];	/* a load parameter's values, parsed; a
										 * configuration's clients, 0 when not set */
	double		rates[WP_MAX_VALUES];	/* a rate sweep's values, parsed */

	/*
	 * A configuration sweep: value i sets cfg[cfg_first[i]] and the
	 * cfg_n[i] - 1 after it (session and server-wide settings; clients is in
	 * ivals)
	 */
	int			cfg_first[WP_MAX_VALUES];
	int			cfg_n[WP_MAX_VALUES];
	int			ncfg;
	WpSetting	cfg[WP_CONFIG_POOL];
	/*
	 * A search: vals[0] is the baseline (the current value, measured in
	 * each pair's first round), then the range's values from its low end to
	 * its high end by the resolution; search_pos[i] is the position in vals
	 * of the i-th of those (0 when it is the baseline).  repeats is then the
	 * fewest rounds a pair of candidates gets, max_repeats the most;
	 * search_max_steps the most steps it takes (0: none, a budget of time
	 * bounds it instead).
	 */
	WpSearchKind search;
	int			search_max_steps;
	int			search_n;
	int			search_pos[WP_MAX_VALUES];
	char		search_low[WP_SEARCH_TEXT];
	char		search_high[WP_SEARCH_TEXT];
	char		search_resolution[WP_SEARCH_TEXT];
	bool		checkpoint;		/* each step starts with a CHECKPOINT */
	bool		standby_loss_skip;	/* on_standby_loss => 'skip' (else 'stop') */
	char		standby_conninfo[WP_TEXT_MAX];	/* "": none */
	int			repeats;		/* rounds; with auto_repeats, the fewest */
	bool		auto_repeats;	/* add rounds until the answer is clear */
	int			max_repeats;	/* with auto_repeats: the most rounds */
	double		budget_s;		/* with auto_repeats: the time the rounds may take, 0: none */
	char		margin[32];		/* the caller's walpressure.equivalence_margin */
	int			clients;		/* unless clients is swept */
	int			max_clients;	/* the most clients any step runs */
	int			batch_size;
	int			round_trip_us;
	char		protocol[16];	/* pgbench's --protocol; "": its default */
	double		rate;			/* open loop: transactions/s asked (pgbench's
								 * --rate, Poisson arrivals); 0: closed loop */
	double		latency_limit_ms;	/* pgbench's --latency-limit; 0: none */
	int			iops_cap;		/* write IOPS of every step, 0: none */
	WpDiskModel disk;			/* the disk a cap stands for, unless disk is swept */
	bool		disk_defaulted; /* disk => not given: paced where there, else throttle */
	double		flush_floor_us; /* the paced disk's least flush time, 0: none */
	bool		uses_paced;		/* a step runs on the paced disk */
	bool		uses_throttle;	/* a step runs under the throttle */
	double		duration_s;
	double		warmup_s;
	WpWorkload	workload;
	WpEngineKind engine;
	bool		is_script;		/* sql is a pgbench script (meta-commands and all) */
	bool		prewarm;
	bool		accept_data_loss;
	int			scale;			/* rows of pgbench_branches, 0 for custom */
	/* the pgbench tables in the caller's search_path, for prewarm and rights */
	Oid			prewarm_rels[4];	/* accounts, branches, history, tellers */
	int			nprewarm;
	int			nfixed;
	WpSetting	fixed[WP_MAX_FIXED];
	bool		has_label;
	char		label[WP_TEXT_MAX];
	char		search_path[WP_TEXT_MAX];	/* the caller's, for the load */
	/* the settings argument as given, a jsonb varlena (aligned: a Datum) */
	char		settings_jsonb[WP_SETTINGS_MAX] pg_attribute_aligned(MAXIMUM_ALIGNOF);
	char		sql[WP_SQL_MAX];
} WpSweepRequest;

/* The disk a capped step of value `pos` runs on (disk swept, or the sweep's). */
static inline WpDiskModel
wp_step_disk(const WpSweepRequest *req, int pos)
{
	return strcmp(req->setting, "disk") == 0 ? (WpDiskModel) req->ivals[pos] : req->disk;
}

/* init_pgbench(scale): where and how big. */
typedef struct WpInitRequest
{
	int			scale;
	char		search_path[WP_TEXT_MAX];
} WpInitRequest;

#endif							/* WALPRESSURE_REQUEST_H */

/*-------------------------------------------------------------------------
 *
 * policy.c
 *		The one place that says what a sweep may vary or fix: the session
 *		settings each client sets for itself, the server-wide settings a
 *		sweep changes with ALTER SYSTEM and restores, the load's
 *		pseudo-parameters; which values can lose data in a crash; and the
 *		workloads by name.
 *
 * api/run_sweep.c checks every argument against these lists, and the SQL
 * functions sweepable_settings(), sweepable_server_settings() and
 * sweepable_load() show them (api/sweepable.c); nothing else keeps a copy.
 *
 * IDENTIFICATION
 *	  src/sweep/policy.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "lib/stringinfo.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/varlena.h"

#include "sweep/policy.h"

typedef struct WpParam
{
	const char *name;
	WpParamKind kind;
} WpParam;

/*
 * First those a session sets for itself, applied in each client; then the
 * server-wide (SIGHUP) WAL settings, applied with ALTER SYSTEM and a reload
 * and restored afterwards (system/alter_system.c); then the load itself.
 */
static const WpParam wp_params[] = {
	{"commit_delay", WP_PARAM_SESSION},
	{"commit_siblings", WP_PARAM_SESSION},
	{"synchronous_commit", WP_PARAM_SESSION},
	{"backend_flush_after", WP_PARAM_SESSION},
	{"wal_compression", WP_PARAM_SESSION},
	{"fsync", WP_PARAM_SERVER},
	{"full_page_writes", WP_PARAM_SERVER},
	{"wal_writer_delay", WP_PARAM_SERVER},
	{"wal_writer_flush_after", WP_PARAM_SERVER},
	{"max_wal_size", WP_PARAM_SERVER},
	{"checkpoint_timeout", WP_PARAM_SERVER},
	{"checkpoint_completion_target", WP_PARAM_SERVER},
	{"wal_sync_method", WP_PARAM_SERVER},
	{"synchronous_standby_names", WP_PARAM_SERVER},
	{"clients", WP_PARAM_LOAD},
	{"batch_size", WP_PARAM_LOAD},
	{"iops_cap", WP_PARAM_LOAD},
	{"disk", WP_PARAM_LOAD},
	{"round_trip_us", WP_PARAM_LOAD},
	{"rate", WP_PARAM_LOAD}
};

static const char *const wp_workloads[WP_N_WORKLOADS] = {
	"simple-update", "tpcb-like", "insert-only", "batch-insert", "select-only", "custom"
};

/*
 * Where `name` applies, or WP_PARAM_NONE when a sweep may not touch it.
 * Names are compared exactly: run_sweep folds them to lower case first,
 * as PostgreSQL does with a setting's name.
 */
WpParamKind
wp_param_kind(const char *name)
{
	for (int i = 0; i < lengthof(wp_params); i++)
		if (strcmp(name, wp_params[i].name) == 0)
			return wp_params[i].kind;
	return WP_PARAM_NONE;
}

/*
 * The name a sweep knows that `name` is most likely a typo of (a few edits
 * away, as PostgreSQL's own "Perhaps you meant" hints), or NULL.
 */
const char *
wp_param_closest(const char *name)
{
	const char *best = NULL;
	int			best_d = 0;
	int			len = strlen(name);
	int			max_d = Max(2, len / 4);

	if (len >= 64)
		return NULL;
	for (int i = 0; i < lengthof(wp_params); i++)
	{
		const char *p = wp_params[i].name;
		int			d = varstr_levenshtein_less_equal(name, len, p, strlen(p),
													  1, 1, 1, max_d + 1, true);

		if (d <= max_d && (best == NULL || d < best_d))
		{
			best = p;
			best_d = d;
		}
	}
	return best;
}

/*
 * The names of one kind, comma-separated, for error hints.
 */
char *
wp_param_list(WpParamKind kind)
{
	StringInfoData out;

	initStringInfo(&out);
	for (int i = 0; i < lengthof(wp_params); i++)
		if (wp_params[i].kind == kind ||
			(kind == WP_PARAM_NONE && wp_params[i].kind != WP_PARAM_LOAD))
			appendStringInfo(&out, "%s%s", out.len > 0 ? ", " : "", wp_params[i].name);
	return out.data;
}

/*
 * The label of a setting's value that can lose data in a crash, or NULL:
 * fsync=off and full_page_writes=off can corrupt the cluster,
 * synchronous_commit=off loses the last commits.
 */
const char *
wp_data_loss(const char *name, const char *value)
{
	bool		on;

	if (strcmp(name, "fsync") != 0 && strcmp(name, "full_page_writes") != 0 &&
		strcmp(name, "synchronous_commit") != 0)
		return NULL;
	if (!parse_bool(value, &on) || on)
		return NULL;
	return psprintf("%s=off", name);
}

/* The disk models by name, as run_sweep and set_iops_cap take them. */
static const char *const wp_disk_models[] = {"paced", "throttle"};

bool
wp_disk_model_from_name(const char *name, WpDiskModel *model)
{
	for (int i = 0; i < lengthof(wp_disk_models); i++)
		if (strcmp(name, wp_disk_models[i]) == 0)
		{
			*model = (WpDiskModel) i;
			return true;
		}
	return false;
}

const char *
wp_disk_model_name(WpDiskModel model)
{
	Assert(model >= 0 && model < lengthof(wp_disk_models));
	return wp_disk_models[model];
}

bool
wp_workload_from_name(const char *name, WpWorkload *workload)
{
	for (int i = 0; i < WP_N_WORKLOADS; i++)
		if (strcmp(name, wp_workloads[i]) == 0)
		{
			*workload = (WpWorkload) i;
			return true;
		}
	return false;
}

const char *
wp_workload_name(WpWorkload workload)
{
	Assert(workload >= 0 && workload < WP_N_WORKLOADS);
	return wp_workloads[workload];
}

/* "simple-update, tpcb-like, ...", for error hints. */
char *
wp_workload_list(void)
{
	StringInfoData out;

	initStringInfo(&out);
	for (int i = 0; i < WP_N_WORKLOADS; i++)
		appendStringInfo(&out, "%s%s", i > 0 ? ", " : "", wp_workloads[i]);
	return out.data;
}

/*
 * The names of the parameters of kind a or b, in the lists' order, into
 * names (room for wp_param_count()); returns how many.
 */
int
wp_param_names(WpParamKind a, WpParamKind b, const char **names)
{
	int			n = 0;

	for (int i = 0; i < lengthof(wp_params); i++)
		if (wp_params[i].kind == a || wp_params[i].kind == b)
			names[n++] = wp_params[i].name;
	return n;
}

/* How many parameters the lists name. */
int
wp_param_count(void)
{
	return lengthof(wp_params);
}

/*-------------------------------------------------------------------------
 *
 * load.c
 *		The load of one step, built in one place from the request and the
 *		position of the step's value: the clients, the batch and the round
 *		trip (a swept load parameter's value, or a configuration's clients),
 *		and the session settings the clients set (the fixed ones, then the
 *		value's).  The coordinator builds each step's; run_sweep's pgbench
 *		preflight builds the first value's.
 *
 * IDENTIFICATION
 *	  src/sweep/load.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "sweep/configs.h"
#include "sweep/load.h"

void
wp_load_spec(const WpSweepRequest *req, int pos, Oid dboid, Oid roleoid, WpLoadSpec *spec)
{
	memset(spec, 0, sizeof(WpLoadSpec));
	spec->dboid = dboid;
	spec->roleoid = roleoid;
	spec->workload = req->workload;
	spec->clients = req->clients;
	spec->batch_size = req->batch_size;
	spec->round_trip_us = req->round_trip_us;
	strlcpy(spec->protocol, req->protocol, sizeof(spec->protocol));
	spec->rate = strcmp(req->setting, "rate") == 0 ? req->rates[pos] : req->rate;
	spec->latency_limit_ms = req->latency_limit_ms;
	spec->scale = Max(req->scale, 1);
	if (strcmp(req->setting, "clients") == 0 ||
		(req->kind == WP_PARAM_CONFIG && req->ivals[pos] > 0))
		spec->clients = req->ivals[pos];
	else if (strcmp(req->setting, "batch_size") == 0)
		spec->batch_size = req->ivals[pos];
	else if (strcmp(req->setting, "round_trip_us") == 0)
		spec->round_trip_us = req->ivals[pos];
	for (int i = 0; i < req->nfixed; i++)
		if (req->fixed[i].kind == WP_PARAM_SESSION)
			spec->settings[spec->nsettings++] = req->fixed[i];
	spec->nsettings += wp_value_session_settings(req, pos, &spec->settings[spec->nsettings],
												 lengthof(spec->settings) - spec->nsettings);
	strlcpy(spec->search_path, req->search_path, WP_TEXT_MAX);
	strlcpy(spec->sql, req->sql, WP_SQL_MAX);
}

/*-------------------------------------------------------------------------
 *
 * standby_request.c
 *		run_sweep's checks of synchronous standbys, as the caller: a step
 *		whose commits would wait for standbys that are not connected and
 *		streaming is refused before anything starts (and so are names a
 *		sweep would set that no standby answers to), and standby_conninfo
 *		must be a superuser's and reach a server in recovery.
 *
 * IDENTIFICATION
 *	  src/api/standby_request.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "replication/syncrep.h"
#include "utils/guc.h"
#if PG_VERSION_NUM >= 160000
#include "utils/guc_hooks.h"
#endif

#include "api/standby_request.h"
#include "compat.h"
#include "sweep/configs.h"
#include "system/standby_link.h"
#include "system/walsenders.h"

/*
 * The synchronous_commit the clients of value `pos` run with, and the
 * synchronous_standby_names in effect during it.
 */
static void
wp_request_levels(const WpSweepRequest *req, int pos, const char **level, const char **names,
				  bool *names_set)
{
	*level = NULL;
	*names = NULL;
	for (int i = 0; i < req->nfixed; i++)
	{
		if (strcmp(req->fixed[i].name, "synchronous_commit") == 0)
			*level = req->fixed[i].value;
		if (strcmp(req->fixed[i].name, "synchronous_standby_names") == 0)
			*names = req->fixed[i].value;
	}
	(void) wp_value_sets(req, pos, "synchronous_commit", level);
	(void) wp_value_sets(req, pos, "synchronous_standby_names", names);
	*names_set = *names != NULL;
	if (*level == NULL)
		*level = GetConfigOptionResetString("synchronous_commit");
	if (*names == NULL)
		*names = GetConfigOption("synchronous_standby_names", false, false);
}

/*
 * Refuse a sweep with a step whose commits would wait for a synchronous
 * standby that is not there: connected, streaming and named by the
 * synchronous_standby_names of that step.  Checked as the caller, before
 * anything starts; the coordinator watches again at each step.
 */
void
wp_request_standby_check(const WpSweepRequest *req)
{
	for (int pos = 0; pos < req->nvals; pos++)
	{
		const char *level;
		const char *names;
		bool		names_set;
		char	   *copy;
		void	   *extra = NULL;
		SyncRepConfigData *cfg;
		StringInfoData seen;
		int			able;

		/*
		 * the load's commits wait; or the sweep sets names that would make
		 * every other session's commits wait, whatever the load's level
		 */
		wp_request_levels(req, pos, &level, &names, &names_set);
		if ((!wp_level_waits(level) && !names_set) || names == NULL || names[0] == '\0')
			continue;
		/* the value passed the GUC machinery's check already: parse it again */
		copy = pstrdup(names);
		if (!check_synchronous_standby_names(&copy, &extra, PGC_S_TEST) || extra == NULL)
			continue;
		cfg = (SyncRepConfigData *) extra;
		initStringInfo(&seen);
		able = wp_standbys_able(cfg, true, false, &seen);
		if (able < cfg->num_sync)
		{
			int			need = cfg->num_sync;

			wp_guc_free(extra);
			if (wp_level_waits(level))
				ereport(ERROR,
						(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
						 errmsg("synchronous_commit = %s needs %d synchronous standby%s, and %d %s connected and streaming",
								level, need, need == 1 ? "" : "s", able, able == 1 ? "is" : "are"),
						 errdetail("With synchronous_standby_names = '%s' (value %d of the sweep), every commit of the load would wait for %s. Walsenders now: %s.",
								   names, pos + 1, need == 1 ? "it" : "them",
								   seen.len > 0 ? seen.data : "none"),
						 errhint("Start the standby and wait until pg_stat_replication shows it streaming, with an application_name synchronous_standby_names names; or sweep synchronous_commit = local.")));
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("synchronous_standby_names = '%s' names %d synchronous standby%s, and %d %s connected and streaming",
							names, need, need == 1 ? "" : "s", able, able == 1 ? "is" : "are"),
					 errdetail("Set by value %d of the sweep, it would make every commit of the server that waits for standbys (synchronous_commit on, remote_write or remote_apply) wait for ever, not only the load's. Walsenders now: %s.",
							   pos + 1, seen.len > 0 ? seen.data : "none"),
					 errhint("Start the standby and wait until pg_stat_replication shows it streaming, or leave synchronous_standby_names out of the sweep.")));
		}
		wp_guc_free(extra);
	}
}

/*
 * Check standby_conninfo as the caller and keep it in the request: a
 * superuser's, it parses, and it reaches a server in recovery.
 */
void
wp_request_standby_conninfo(WpSweepRequest *req, const char *conninfo)
{
	char	   *problem;
	char	   *err = NULL;
	bool		standby = false;

	if (!superuser())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("only a superuser may give standby_conninfo"),
				 errdetail("The server connects to the standby with its own credentials (its Unix-socket identity, password file, certificates), which are not the caller's."),
				 errhint("Have a superuser run the sweep, or run it without standby_conninfo: the standby's lags and the wait for it are recorded without it.")));
	if (strlen(conninfo) >= sizeof(req->standby_conninfo))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("standby_conninfo is longer than %d bytes",
						(int) sizeof(req->standby_conninfo) - 1)));
	if ((problem = wp_conninfo_problem(conninfo)) != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("standby_conninfo is not a connection string: %s", problem),
				 errhint("For example standby_conninfo => 'hostaddr=10.0.0.2 port=5432 dbname=postgres user=monitor'.")));
	if (!wp_standby_reached(conninfo, &standby, &err))
		ereport(ERROR,
				(errcode(ERRCODE_SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION),
				 errmsg("could not connect to the standby of standby_conninfo"),
				 errdetail("%s", err)));
	if (!standby)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("standby_conninfo reaches a server that is not a standby"),
				 errdetail("%s", err ? err : "pg_is_in_recovery() is false there.")));
	strlcpy(req->standby_conninfo, conninfo, sizeof(req->standby_conninfo));
}

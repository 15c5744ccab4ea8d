/*-------------------------------------------------------------------------
 *
 * init_pgbench.c
 *		init_pgbench(scale): pgbench's tables built in the server, as
 *		`pgbench -i -I dtGvp -s scale` does, by a worker
 *		(coordinator/pgbench_init_worker.c) the caller waits for: the scale and
 *		where the tables go, checked here as the caller.
 *
 * IDENTIFICATION
 *	  src/api/init_pgbench.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

#include "compat.h"
#include "job/launch.h"
#include "live/shmem.h"
#include "restore/restore.h"
#include "sweep/rights.h"

/* 10 billion accounts, about 1.5 TB: more than anyone tunes WAL on */
#define WP_INIT_SCALE_MAX	100000

PG_FUNCTION_INFO_V1(wp_init_pgbench);

/*
 * Where the tables go: the schema an unqualified CREATE TABLE of the
 * caller's would use (the first of its search_path that exists), which the
 * caller must be allowed to create in.  The worker's search_path is
 * that schema, then pg_catalog: the tables are dropped and created there
 * only, and every function and operator the statements use is named with
 * its schema, pg_catalog, so that none of that schema's runs.
 */
static void
wp_init_schema(WpInitRequest *req)
{
	Oid			nsp = RangeVarGetCreationNamespace(makeRangeVar(NULL, "pgbench_accounts", -1));
	char	   *name = get_namespace_name(nsp);

	if (wp_namespace_aclcheck(nsp, GetUserId(), ACL_CREATE) != ACLCHECK_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to create the pgbench tables in schema \"%s\"", name),
				 errdetail("init_pgbench creates them where an unqualified CREATE TABLE of yours would: the first schema of your search_path that exists."),
				 errhint("Put a schema you may create in first in search_path, or have a superuser GRANT CREATE ON SCHEMA %s TO %s;",
						 quote_identifier(name), quote_identifier(GetUserNameFromId(GetUserId(), false)))));
	snprintf(req->search_path, sizeof(req->search_path), "%s, pg_catalog, pg_temp",
			 quote_identifier(name));
}

/*
 * init_pgbench(scale int): the pgbench tables, built by a worker (VACUUM
 * cannot run inside the caller's function call), where the caller's
 * search_path says.
 */
Datum
wp_init_pgbench(PG_FUNCTION_ARGS)
{
	WpInitRequest *req = palloc0(sizeof(WpInitRequest));

	wp_require_preload();
	req->scale = PG_GETARG_INT32(0);
	if (req->scale < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("scale must be at least 1")));
	if (req->scale > WP_INIT_SCALE_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("scale must be at most %d (%d million accounts)",
						WP_INIT_SCALE_MAX, WP_INIT_SCALE_MAX / 10)));
	wp_rights_login();
	wp_init_schema(req);
	wp_restore_check_launch();
	wp_job_run_init(req);
	PG_RETURN_VOID();
}

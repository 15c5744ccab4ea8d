/*-------------------------------------------------------------------------
 *
 * rights.c
 *		What a sweep does on the caller's behalf needs the rights the
 *		caller would need to do it: log in, set each session setting,
 *		ALTER SYSTEM each server-wide one and reload, cap the disk, run a
 *		CHECKPOINT, prewarm, run the server's pgbench, read and write the
 *		pgbench tables.  run_sweep checks them as the caller (api/run_sweep.c),
 *		each with its own error and the GRANT that would allow it; the
 *		coordinator, which runs as the same role, checks them all again
 *		before each step, so that a right revoked during a sweep ends it at
 *		the next step.
 *
 * IDENTIFICATION
 *	  src/sweep/rights.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/namespace.h"
#include "catalog/pg_authid.h"
#include "catalog/pg_proc.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/catcache.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

#include "compat.h"
#include "sweep/configs.h"
#include "sweep/rights.h"

static const char *
wp_me(void)
{
	return quote_identifier(GetUserNameFromId(GetUserId(), false));
}

/*
 * The end of a HINT for a right a sweep needs: the one call that grants
 * what a sweep needs but running the server's pgbench, which is asked for
 * on its own (it equals superuser).
 */
const char *
wp_sweeper_hint(void)
{
	return psprintf("SELECT walpressure.grant_sweeper(%s); grants every right a sweep needs (engine => 'pgbench' also lets it run the server's pgbench, which equals superuser).",
					quote_literal_cstr(wp_me()));
}

/* The workers connect as the current role: it must be able to log in. */
void
wp_rights_login(void)
{
	HeapTuple	role;
	bool		can_login;

	role = SearchSysCache1(AUTHOID, ObjectIdGetDatum(GetUserId()));
	if (!HeapTupleIsValid(role))
		elog(ERROR, "cache lookup failed for role %u", GetUserId());
	can_login = ((Form_pg_authid) GETSTRUCT(role))->rolcanlogin;
	ReleaseSysCache(role);
	if (!can_login)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("role \"%s\" cannot log in, and walpressure's workers connect as the current role",
						GetUserNameFromId(GetUserId(), false)),
				 errhint("RESET ROLE, or run it as a role with LOGIN.")));
}

/*
 * May the role set session setting `name` to `value` (a value the GUC
 * machinery accepts)?  A setting only superusers may set (commit_delay,
 * wal_compression) needs SET privilege on it, exactly as the role's own SET
 * would.  Nothing is changed.
 */
void
wp_rights_session_setting(const char *name, const char *value)
{
	if (!superuser() &&
		set_config_option(name, value, PGC_USERSET, PGC_S_SESSION,
						  GUC_ACTION_SET, false, DEBUG1, false) == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to set parameter \"%s\"", name),
				 errdetail("The sweep's clients set it in their sessions as the role that runs the sweep."),
				 errhint("A superuser can allow it with GRANT SET ON PARAMETER %s TO %s;%s%s", name,
						 wp_me(),
						 strcmp(name, "commit_delay") == 0 ? " " : "",
						 strcmp(name, "commit_delay") == 0 ? wp_sweeper_hint() : "")));
}

/* May the role ALTER SYSTEM server-wide setting `name`? */
void
wp_rights_server_setting(const char *name)
{
	if (pg_parameter_aclcheck(name, GetUserId(), ACL_ALTER_SYSTEM) != ACLCHECK_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to change %s for the whole server", name),
				 errdetail("A sweep changes server-wide settings with ALTER SYSTEM as the role that runs it."),
				 errhint("A superuser can allow it with GRANT ALTER SYSTEM ON PARAMETER %s TO %s;", name,
						 wp_me())));
}

/*
 * May the role run a function of the extension (`signature` as shown,
 * `lookup` fully qualified, so no search_path plays a part)?  A sweep does
 * on the role's behalf what these functions do, so it needs the same right.
 */
static void
wp_check_may_call(const char *signature, const char *lookup, const char *why)
{
	Oid			fn;

	fn = DatumGetObjectId(DirectFunctionCall1(to_regprocedure, CStringGetTextDatum(lookup)));
	if (!OidIsValid(fn) || wp_proc_aclcheck(fn, GetUserId(), ACL_EXECUTE) != ACLCHECK_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to %s", why),
				 errdetail("The sweep does it as walpressure.%s would, and this role may not run that.",
						   signature),
				 strncmp(signature, "prewarm", 7) == 0 ?
				 errhint("A superuser can allow it with GRANT EXECUTE ON FUNCTION walpressure.%s TO %s; or run the sweep with prewarm => false. %s",
						 signature, wp_me(), wp_sweeper_hint()) :
				 errhint("A superuser can allow it with GRANT EXECUTE ON FUNCTION walpressure.%s TO %s;",
						 signature, wp_me())));
}

/* Server-wide settings take effect with a reload: pg_reload_conf()'s right. */
void
wp_rights_reload(void)
{
	Oid			fn = DatumGetObjectId(DirectFunctionCall1(to_regprocedure,
														  CStringGetTextDatum("pg_catalog.pg_reload_conf()")));

	if (!OidIsValid(fn) || wp_proc_aclcheck(fn, GetUserId(), ACL_EXECUTE) != ACLCHECK_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to %s", "reload the server's configuration"),
				 errdetail("A sweep that changes server-wide settings applies them with a reload, as %s does.",
						   "pg_reload_conf()"),
				 errhint("A superuser can allow it with GRANT EXECUTE ON FUNCTION pg_catalog.%s TO %s;",
						 "pg_reload_conf()", wp_me())));
}

void
wp_rights_cap(void)
{
	wp_check_may_call("set_iops_cap(integer,integer,text,text,double precision,integer)",
					  "walpressure.set_iops_cap(pg_catalog.int4,pg_catalog.int4,pg_catalog.text,pg_catalog.text,pg_catalog.float8,pg_catalog.int4)",
					  "cap the disk's IOPS");
}

void
wp_rights_prewarm(void)
{
	wp_check_may_call("prewarm(regclass[])",
					  "walpressure.prewarm(pg_catalog.regclass[])",
					  "prewarm the pgbench tables before the sweep");
}

/* Each step starts with a CHECKPOINT: pg_checkpoint's right. */
void
wp_rights_checkpoint(void)
{
	if (!has_privs_of_role(GetUserId(), ROLE_PG_CHECKPOINT))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to start each step with a CHECKPOINT"),
				 errdetail("Each step of a sweep starts with a CHECKPOINT, which needs the privileges of pg_checkpoint."),
				 errhint("A superuser can allow it with GRANT pg_checkpoint TO %s; or run the sweep with checkpoint => false. %s",
						 wp_me(), wp_sweeper_hint())));
}

/*
 * The pgbench engine starts a program on the server: the right of
 * pg_execute_server_program, which lets a role run any program as the
 * server's OS user, and so equals superuser.  grant_sweeper grants it only
 * when asked with engine => 'pgbench'.
 */
void
wp_rights_program(void)
{
	if (!has_privs_of_role(GetUserId(), ROLE_PG_EXECUTE_SERVER_PROGRAM))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to run pgbench on the server"),
				 errdetail("The pgbench engine starts a program on the server, which needs the privileges of pg_execute_server_program: they let a role run any program as the server's operating system user, which equals superuser."),
				 errhint("Run the sweep with engine => 'backend', or a superuser can allow it with SELECT walpressure.grant_sweeper(%s, engine => 'pgbench');",
						 quote_literal_cstr(wp_me()))));
}

/* The built-in workloads read and write the pgbench tables as the role. */
void
wp_rights_tables(const char *workload, Oid branches)
{
	if (pg_class_aclcheck(branches, GetUserId(), ACL_SELECT) != ACLCHECK_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to read the pgbench tables"),
				 errdetail("The load runs as the role that runs the sweep, and %s reads and writes the pgbench tables.",
						   workload),
				 errhint("A superuser can allow it with GRANT SELECT, UPDATE ON pgbench_accounts, pgbench_branches, pgbench_tellers TO %s; GRANT SELECT, INSERT ON pgbench_history TO %s; %s",
						 wp_me(), wp_me(), wp_sweeper_hint())));
}

/* run_sweep itself: revoke_sweeper takes it away. */
static void
wp_rights_run_sweep(void)
{
	Oid			nsp = get_namespace_oid("walpressure", false);
	CatCList   *fns = SearchSysCacheList1(PROCNAMEARGSNSP, CStringGetDatum("run_sweep"));
	bool		may = false;

	for (int i = 0; i < fns->n_members; i++)
	{
		Form_pg_proc p = (Form_pg_proc) GETSTRUCT(&fns->members[i]->tuple);

		if (p->pronamespace == nsp &&
			wp_proc_aclcheck(p->oid, GetUserId(), ACL_EXECUTE) == ACLCHECK_OK)
			may = true;
	}
	ReleaseSysCacheList(fns);
	if (!may)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied for function run_sweep"),
				 errhint("A superuser can allow it with %s", wp_sweeper_hint())));
}

/*
 * Before each step, in the coordinator (as the sweep's role, in a
 * transaction): every right run_sweep checked is still there.  One that
 * was revoked ends the sweep here, its message saying so; the steps before
 * are recorded.
 */
void
wp_rights_recheck(const WpSweepRequest *req, int step)
{
	MemoryContext cxt = CurrentMemoryContext;

	PG_TRY();
	{
		List	   *server = wp_request_server_names(req);

		wp_rights_login();
		wp_rights_run_sweep();
		for (int i = 0; i < req->nfixed; i++)
		{
			if (req->fixed[i].kind == WP_PARAM_SESSION)
				wp_rights_session_setting(req->fixed[i].name, req->fixed[i].value);
			else
				server = lappend(server, (char *) req->fixed[i].name);
		}
		for (int pos = 0; pos < req->nvals; pos++)
		{
			WpSetting	s[WP_CONFIG_MAX];
			int			n;

			if (req->kind == WP_PARAM_SESSION)
				wp_rights_session_setting(req->setting, req->vals[pos]);
			n = wp_value_session_settings(req, pos, s, lengthof(s));
			for (int k = 0; k < n; k++)
				wp_rights_session_setting(s[k].name, s[k].value);
		}
		if (req->kind == WP_PARAM_SERVER)
			server = lappend(server, (char *) req->setting);
		if (server != NIL)
		{
			ListCell   *lc;

			foreach(lc, server)
				wp_rights_server_setting(lfirst(lc));
			wp_rights_reload();
		}
		if (req->iops_cap > 0 || strcmp(req->setting, "iops_cap") == 0)
			wp_rights_cap();
		if (req->checkpoint)
			wp_rights_checkpoint();
		if (req->engine == WP_ENGINE_PGBENCH)
			wp_rights_program();
		if (req->workload != WP_WORKLOAD_CUSTOM && req->nprewarm > 1)
			wp_rights_tables(wp_workload_name(req->workload), req->prewarm_rels[1]);
		if (req->standby_conninfo[0] != '\0' && !superuser())
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("only a superuser may give standby_conninfo"),
					 errdetail("The server connects to the standby with its own credentials (its Unix-socket identity, password file, certificates), which are not the caller's.")));
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(cxt);
		edata = CopyErrorData();
		FlushErrorState();
		if (edata->sqlerrcode != ERRCODE_INSUFFICIENT_PRIVILEGE)
			ReThrowError(edata);
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("the sweep's role lost a right the sweep needs: %s", edata->message),
				 errdetail("The rights were checked again before step %d; the steps before it are recorded.",
						   step),
				 edata->hint ? errhint("%s", edata->hint) : 0));
	}
	PG_END_TRY();
}

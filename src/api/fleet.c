/*-------------------------------------------------------------------------
 *
 * fleet.c
 *		The fleet's entry points: fleet_register(), fleet_run(),
 *		fleet_collect() and fleet_cancel().  What they are given is checked
 *		here, in C, as the caller, before any server is contacted; the work
 *		is then the SQL of sql/objects/fleet/, over dblink, run through
 *		SPI as the caller.
 *
 * The security of the fleet rests on four rules, each enforced here:
 *
 *	- A server is reached only through a foreign server the caller may use
 *	  (USAGE) and a user mapping of the caller's own role, never PUBLIC's
 *	  (fleet_server.c): dblink then connects as the remote role that mapping
 *	  names, with its password (dblink refuses a non-superuser a connection
 *	  that used none), and the fleet's SQL runs as its caller (no SECURITY
 *	  DEFINER anywhere), so no role can reach a server through a mapping
 *	  that is not its own, and no connection is made as a superuser for a
 *	  role that is not one.  walpressure stores no password and builds no
 *	  connection string: dblink reads the foreign server's options and the
 *	  mapping's.
 *	- The fleet's rows are written as the extension's owner, only after the
 *	  caller's authority over them is checked in C (fleet_rows.c): a run's
 *	  rows by the call that runs it, what a server answered for a server
 *	  the caller may reach, a cancel by a role with the run's starter's
 *	  privileges.  An operator needs no right on the tables but reading.
 *	- On each server the sweep is that server's run_sweep, called by the
 *	  mapped role: it checks every argument and every right there, as it
 *	  does for a sweep started in psql.  Starting a fleet's sweeps thus
 *	  needs exactly the rights a sweep needs on each server; nothing central
 *	  can lend more.
 *	- The call sent is built here from a closed list of run_sweep's
 *	  argument names, each value a quoted literal of the type that argument
 *	  takes: no text of the caller's becomes SQL.
 *
 * IDENTIFICATION
 *	  src/api/fleet.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "catalog/pg_user_mapping.h"
#include "commands/extension.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "foreign/foreign.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "nodes/parsenodes.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/numeric.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

#include "compat.h"
#include "api/arguments.h"
#include "api/fleet_rows.h"
#include "api/fleet_server.h"
#include "api/fleet_sweep.h"
#include "common/safe_spi.h"

PG_FUNCTION_INFO_V1(wp_fleet_register);
PG_FUNCTION_INFO_V1(wp_fleet_run);
PG_FUNCTION_INFO_V1(wp_fleet_collect);
PG_FUNCTION_INFO_V1(wp_fleet_cancel);

/* The most servers one call names. */
#define WP_FLEET_MAX_SERVERS	1000

/*
 * dblink must be installed in this database: the fleet's only dependency
 * beyond walpressure's own (the SQL finds its schema).
 */
static void
wp_fleet_need_dblink(void)
{
	Oid			ext = get_extension_oid("dblink", true);

	if (!OidIsValid(ext))
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("the fleet needs the dblink extension in this database"),
				 errdetail("walpressure reaches the fleet's servers over dblink, through foreign servers and user mappings."),
				 errhint("CREATE EXTENSION dblink first (it comes with PostgreSQL's contrib modules).")));
}

/* Is the server registered in walpressure.fleet_servers?  Inside SPI. */
static bool
wp_fleet_registered(const char *name)
{
	if (SPI_execute_with_args("SELECT 1 FROM walpressure.fleet_servers WHERE server = $1",
							  1, (Oid[]) {TEXTOID}, (Datum[]) {CStringGetTextDatum(name)},
							  NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not read walpressure.fleet_servers");
	return SPI_processed == 1;
}

/*
 * The servers a call names: each registered and reachable the fleet's way
 * (wp_fleet_server), none twice; NULL: every registered server.  Inside
 * SPI.  Returns a text[] datum.
 */
static Datum
wp_fleet_servers_arg(FunctionCallInfo fcinfo, int arg)
{
	Datum	   *elems;
	bool	   *nulls;
	int			n;

	if (PG_ARGISNULL(arg))
	{
		if (SPI_execute("SELECT coalesce(array_agg(server::text ORDER BY server), '{}') FROM walpressure.fleet_servers",
						true, 1) != SPI_OK_SELECT || SPI_processed != 1)
			elog(ERROR, "could not read walpressure.fleet_servers");
		{
			bool		isnull;
			ArrayType  *all = DatumGetArrayTypeP(SPI_getbinval(SPI_tuptable->vals[0],
															   SPI_tuptable->tupdesc, 1, &isnull));

			deconstruct_array(all, TEXTOID, -1, false, TYPALIGN_INT, &elems, &nulls, &n);
		}
		if (n == 0)
			ereport(ERROR,
					(errcode(ERRCODE_NO_DATA_FOUND),
					 errmsg("no server is registered in the fleet"),
					 errhint("Register each with SELECT walpressure.fleet_register('server name');")));
	}
	else
	{
		ArrayType  *arr = PG_GETARG_ARRAYTYPE_P(arg);

		if (ARR_NDIM(arr) > 1)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("servers must be a one-dimensional array")));
		deconstruct_array(arr, TEXTOID, -1, false, TYPALIGN_INT, &elems, &nulls, &n);
		if (n == 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("servers is empty"),
					 errhint("Name the servers, or pass NULL for every registered one.")));
		if (n > WP_FLEET_MAX_SERVERS)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("servers names %d servers; one call takes at most %d", n, WP_FLEET_MAX_SERVERS)));
	}
	for (int i = 0; i < n; i++)
	{
		char	   *name;

		if (nulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("servers holds a NULL")));
		name = TextDatumGetCString(elems[i]);
		for (int j = 0; j < i; j++)
			if (strcmp(name, TextDatumGetCString(elems[j])) == 0)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("servers names \"%s\" twice", name)));
		if (!wp_fleet_registered(name))
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_OBJECT),
					 errmsg("server \"%s\" is not registered in the fleet", name),
					 errhint("Register it with SELECT walpressure.fleet_register(%s);",
							 quote_literal_cstr(name))));
		(void) wp_fleet_server(name, false);
	}
	return PointerGetDatum(construct_array(elems, n, TEXTOID, -1, false, TYPALIGN_INT));
}

/*
 * fleet_register(server text, check bool DEFAULT true) returns
 * walpressure.fleet_servers: the foreign server added to the fleet (once),
 * and with check, asked what it is (_fleet_register).
 */
Datum
wp_fleet_register(PG_FUNCTION_ARGS)
{
	char	   *name = text_to_cstring(PG_GETARG_TEXT_PP(0));
	bool		check = PG_GETARG_BOOL(1);
	Datum		args[2] = {PG_GETARG_DATUM(0), (Datum) 0};
	char		nulls[2] = {' ', 'n'};
	Datum		row;
	bool		isnull;
	int			nest;

	wp_fleet_need_dblink();
	(void) wp_fleet_server(name, true);
	SPI_connect();
	nest = wp_safe_path_begin();
	if (check)
	{
		/* who answers, asked as the caller's own mapping */
		if (SPI_execute_with_args("SELECT walpressure._fleet_ask_who($1)", 1, (Oid[]) {TEXTOID}, args,
								  NULL, false, 1) != SPI_OK_SELECT || SPI_processed != 1)
			elog(ERROR, "could not ask the server who it is");
		args[1] = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
		if (!isnull)
			args[1] = datumCopy(args[1], false, -1);
		nulls[1] = isnull ? 'n' : ' ';
	}
	/* the row, as the extension's owner: for a server the caller may reach */
	row = wp_fleet_record_server(args[0], args[1], nulls[1] == ' ');
	wp_safe_path_end(nest);
	SPI_finish();
	PG_RETURN_DATUM(row);
}

/*
 * fleet_run(sweep jsonb, servers text[] DEFAULT NULL, lost_after interval
 * DEFAULT '60 s', INOUT run_id bigint DEFAULT NULL), a procedure: the same
 * sweep started on every server at once, watched and gathered
 * (_fleet_run).  It commits after each look at the servers, so that
 * walpressure.fleet_progress shows where each is from any session: it
 * must be CALLed on its own, not in a transaction block.
 */
Datum
wp_fleet_run(PG_FUNCTION_ARGS)
{
	CallContext *call = (CallContext *) fcinfo->context;
	Jsonb	   *sweep;
	Interval   *lost;
	Interval	least = {.time = USECS_PER_SEC};
	Interval	most = {.day = 1};
	Datum		servers;
	int64		run_id;
	char	   *statement;
	ParamListInfo params;
	SPIExecuteOptions opts = {0};
	Oid			types[5] = {INT8OID, TEXTARRAYOID, JSONBOID, TEXTOID, INTERVALOID};
	Datum		values[5];
	TupleDesc	desc;
	HeapTuple	tuple;
	int			nest;

	if (call == NULL || !IsA(call, CallContext))
		elog(ERROR, "walpressure.fleet_run is a procedure");
	if (call->atomic)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TRANSACTION_STATE),
				 errmsg("fleet_run cannot run inside a transaction block or a function"),
				 errdetail("It commits after each look at the servers, so that walpressure.fleet_progress shows where each is."),
				 errhint("CALL walpressure.fleet_run(...); on its own.")));
	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("sweep must not be NULL"),
				 errhint("sweep holds run_sweep's arguments by name, for example '{\"setting\": \"commit_delay\", \"vals\": [0, 1000]}'.")));
	sweep = PG_GETARG_JSONB_P(0);
	if (PG_ARGISNULL(2))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("lost_after must not be NULL")));
	lost = PG_GETARG_INTERVAL_P(2);
	if (DatumGetInt32(DirectFunctionCall2(interval_cmp, IntervalPGetDatum(lost), IntervalPGetDatum(&least))) < 0 ||
		DatumGetInt32(DirectFunctionCall2(interval_cmp, IntervalPGetDatum(lost), IntervalPGetDatum(&most))) > 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("lost_after must be between 1 second and 1 day, not %s",
						DatumGetCString(DirectFunctionCall1(interval_out, IntervalPGetDatum(lost)))),
				 errhint("It is how long a server may leave a question unanswered before it counts as lost.")));
	wp_fleet_need_dblink();

	SPI_connect_ext(SPI_OPT_NONATOMIC);
	nest = wp_safe_path_begin();
	servers = wp_fleet_servers_arg(fcinfo, 1);
	run_id = wp_fleet_next_run_id();
	statement = wp_fleet_statement(sweep, run_id);
	/* its rows, as the extension's owner, for the caller in this session */
	wp_fleet_insert_run(run_id, JsonbPGetDatum(sweep), servers, IntervalPGetDatum(lost));
	/* (the procedure commits: it sets its own search_path in each transaction) */
	wp_safe_path_end(nest);

	values[0] = Int64GetDatum(run_id);
	values[1] = servers;
	values[2] = JsonbPGetDatum(sweep);
	values[3] = CStringGetTextDatum(statement);
	values[4] = IntervalPGetDatum(lost);
	params = makeParamList(5);
	for (int i = 0; i < 5; i++)
	{
		params->params[i].value = values[i];
		params->params[i].isnull = false;
		params->params[i].pflags = PARAM_FLAG_CONST;
		params->params[i].ptype = types[i];
	}
	opts.params = params;
	opts.allow_nonatomic = true;
	/* as the caller (dblink connects with its own mapping); the rows this run
	 * learns written through the gates of fleet_rows.c, for this run only */
	wp_fleet_scope_enter(WP_FLEET_RUN, run_id);
	PG_TRY();
	{
		if (SPI_execute_extended("CALL walpressure._fleet_run($1, $2, $3, $4, $5)", &opts) != SPI_OK_UTILITY)
			elog(ERROR, "could not run the fleet");
	}
	PG_FINALLY();
	{
		wp_fleet_scope_leave();
	}
	PG_END_TRY();
	SPI_finish();

	/* the INOUT run_id, as a procedure's output: one record */
	desc = CreateTemplateTupleDesc(1);
	TupleDescInitEntry(desc, (AttrNumber) 1, "run_id", INT8OID, -1, 0);
	desc = BlessTupleDesc(desc);
	tuple = heap_form_tuple(desc, (Datum[]) {Int64GetDatum(run_id)}, (bool[]) {false});
	PG_RETURN_DATUM(HeapTupleGetDatum(tuple));
}

/*
 * fleet_collect(servers text[] DEFAULT NULL) returns a row per server: the
 * sweeps that ended on it and are not here yet, brought in
 * (_fleet_collect).
 */
Datum
wp_fleet_collect(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo;
	Datum		servers;
	int			nest;

	wp_fleet_need_dblink();
	InitMaterializedSRF(fcinfo, 0);
	rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	SPI_connect();
	nest = wp_safe_path_begin();
	servers = wp_fleet_servers_arg(fcinfo, 0);
	wp_fleet_scope_enter(WP_FLEET_COLLECT, 0);
	PG_TRY();
	{
		if (SPI_execute_with_args("SELECT * FROM walpressure._fleet_collect($1)", 1,
								  (Oid[]) {TEXTARRAYOID}, &servers, NULL, false, 0) != SPI_OK_SELECT)
			elog(ERROR, "could not collect");
	}
	PG_FINALLY();
	{
		wp_fleet_scope_leave();
	}
	PG_END_TRY();
	wp_spi_rows_out(rsinfo);
	wp_safe_path_end(nest);
	SPI_finish();
	return (Datum) 0;
}

/*
 * fleet_cancel(run_id bigint, servers text[] DEFAULT NULL) returns int: ask
 * the session that runs fleet run `run_id` to cancel its sweeps on those
 * servers (all by default); it does so at its next look, within a second.
 * Only the role that started the run, a role with its privileges, or a
 * superuser may.  Returns how many servers were asked.
 */
Datum
wp_fleet_cancel(PG_FUNCTION_ARGS)
{
	int64		run_id = PG_GETARG_INT64(0);
	char	   *run_by;
	char	   *status;
	bool		alive;
	Oid			owner;
	bool		isnull;
	int64		n;
	int			nest;

	SPI_connect();
	nest = wp_safe_path_begin();
	if (SPI_execute_with_args("SELECT r.run_by::text, r.status, "
							  "EXISTS (SELECT FROM pg_catalog.pg_stat_activity a WHERE a.pid = r.pid "
							  "AND (a.backend_start = r.backend_start OR a.backend_start IS NULL)) "
							  "FROM walpressure.fleet_runs r WHERE r.run_id = $1",
							  1, (Oid[]) {INT8OID}, (Datum[]) {Int64GetDatum(run_id)},
							  NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not read walpressure.fleet_runs");
	if (SPI_processed != 1)
		ereport(ERROR,
				(errcode(ERRCODE_NO_DATA_FOUND),
				 errmsg("no fleet run " INT64_FORMAT, run_id),
				 errhint("walpressure.fleet_runs lists them.")));
	run_by = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);
	status = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2);
	alive = DatumGetBool(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 3, &isnull));
	owner = get_role_oid(run_by, true);
	if (!superuser() && (!OidIsValid(owner) || !has_privs_of_role(GetUserId(), owner)))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to cancel fleet run " INT64_FORMAT, run_id),
				 errdetail("It was started by role \"%s\"; only roles with its privileges may cancel it.", run_by)));
	if (strcmp(status, "running") == 0 && !alive)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("fleet run " INT64_FORMAT " lost the session that ran it", run_id),
				 errdetail("Each of its servers cancelled its sweep when it saw that session's connection close."),
				 errhint("SELECT * FROM walpressure.fleet_collect(); gathers what they did.")));
	if (strcmp(status, "running") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("fleet run " INT64_FORMAT " is not running: it is %s", run_id, status),
				 errhint("walpressure.fleet_progress shows what became of each server.")));
	/* the request, as the extension's owner: the caller may cancel this run */
	n = wp_fleet_ask_cancel(run_id, PG_ARGISNULL(1) ? (Datum) 0 : PG_GETARG_DATUM(1), PG_ARGISNULL(1));
	wp_safe_path_end(nest);
	SPI_finish();
	PG_RETURN_INT32((int32) n);
}

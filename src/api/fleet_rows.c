/*-------------------------------------------------------------------------
 *
 * fleet_rows.c
 *		How the fleet writes its rows: as the extension's owner, with
 *		search_path = pg_catalog, pg_temp as a restricted operation (as the
 *		coordinator writes a sweep's, coordinator/row_writer.c), after checking
 *		here, in C, as the caller, that the caller may write those rows.  An
 *		operator of the fleet then needs no right on its tables beyond
 *		reading them, and cannot write them but through these checks: not
 *		cancel or take over another's run, not insert a sweep that import()
 *		did not check.
 *
 * The dblink sessions stay the caller's (fleet_run's and fleet_collect's
 * SQL runs as the caller: dblink connects with the caller's own user
 * mapping, and a connection made as the owner, a superuser, would skip
 * dblink's password check).  Only what a call learnt is written as the
 * owner, through the SQL-callable gates below (_fleet_member_set,
 * _fleet_run_end, _fleet_answered, _fleet_gather), which the caller's SQL
 * calls.  Each gate writes only within the call of an entry point of this
 * backend that is running now (wp_fleet_scope_enter): a fleet run's rows
 * only from the fleet_run() call that runs it, in the session recorded in
 * its row, for the role that started it; what a server answered only during
 * fleet_run() or fleet_collect(), for a server the caller may reach the
 * fleet's way (USAGE, its own user mapping).  Nothing the caller runs
 * otherwise can reach them: the entry points' SQL pins search_path, so no
 * function of the caller's runs inside them.  The statements that write
 * are here, each run as the owner by wp_fleet_as_owner (every text a
 * server sent cleaned first, wp_text_line); only fleet_register()'s row,
 * whose NOTICEs share the fleet's SQL reading of an answer, is SQL's
 * (_fleet_write_server).
 *
 * IDENTIFICATION
 *	  src/api/fleet_rows.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/pg_extension.h"
#include "catalog/pg_type.h"
#include "commands/extension.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/jsonb.h"
#include "utils/numeric.h"
#include "utils/timestamp.h"

#include "api/fleet_rows.h"
#include "api/fleet_server.h"
#include "common/text_check.h"

PG_FUNCTION_INFO_V1(wp_fleet_in_call);
PG_FUNCTION_INFO_V1(wp_fleet_member_set);
PG_FUNCTION_INFO_V1(wp_fleet_run_end);
PG_FUNCTION_INFO_V1(wp_fleet_answered);
PG_FUNCTION_INFO_V1(wp_fleet_gather);

/*
 * The entry point of this backend that runs now, and for whom: set for the
 * length of its call (wp_fleet_scope_enter), so that the gates know they
 * are called from it.
 */
static struct
{
	WpFleetScope kind;
	int64		run_id;
	Oid			role;
}			wp_fleet_scope;

void
wp_fleet_scope_enter(WpFleetScope kind, int64 run_id)
{
	wp_fleet_scope.kind = kind;
	wp_fleet_scope.run_id = run_id;
	wp_fleet_scope.role = GetUserId();
}

void
wp_fleet_scope_leave(void)
{
	wp_fleet_scope.kind = WP_FLEET_NONE;
	wp_fleet_scope.run_id = 0;
	wp_fleet_scope.role = InvalidOid;
}

/* The extension's owner, read from pg_extension by the extension's oid. */
static Oid
wp_fleet_owner(void)
{
	Oid			ext = get_extension_oid("walpressure", false);
	Relation	rel = table_open(ExtensionRelationId, AccessShareLock);
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tup;
	Oid			owner;

	ScanKeyInit(&key, Anum_pg_extension_oid, BTEqualStrategyNumber, F_OIDEQ, ObjectIdGetDatum(ext));
	scan = systable_beginscan(rel, ExtensionOidIndexId, true, NULL, 1, &key);
	tup = systable_getnext(scan);
	if (!HeapTupleIsValid(tup))
		elog(ERROR, "could not find extension walpressure");
	owner = ((Form_pg_extension) GETSTRUCT(tup))->extowner;
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return owner;
}

/*
 * Run sql (one of this file's texts) through SPI as the extension's owner,
 * with search_path = pg_catalog, pg_temp, as a restricted operation; inside
 * SPI.  Returns SPI's result code.  An error restores the caller's identity
 * and settings as it aborts the (sub)transaction.
 */
static int
wp_fleet_as_owner(const char *sql, int nargs, Oid *types, Datum *values, const char *nulls,
				  bool read_only)
{
	Oid			owner = wp_fleet_owner();
	Oid			user;
	int			sec;
	int			nest;
	int			rc;

	GetUserIdAndSecContext(&user, &sec);
	nest = NewGUCNestLevel();
	(void) set_config_option("search_path", "pg_catalog, pg_temp", PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
	SetUserIdAndSecContext(owner, sec | SECURITY_LOCAL_USERID_CHANGE | SECURITY_RESTRICTED_OPERATION);
	rc = SPI_execute_with_args(sql, nargs, types, values, nulls, read_only, 0);
	SetUserIdAndSecContext(user, sec);
	AtEOXact_GUC(true, nest);
	return rc;
}

/*
 * doc's member key as ->> reads it (a string's characters, another value's
 * JSON text; NULL, *null = 'n', when it is missing or JSON null), cleaned as
 * one line (wp_text_line): a text a server sent, kept as it may be shown.
 */
static Datum
wp_fleet_line_of(Jsonb *doc, const char *key, char *null)
{
	JsonbValue *v = JB_ROOT_IS_OBJECT(doc) ? getKeyJsonValueFromContainer(&doc->root, key, strlen(key), NULL) : NULL;
	char	   *s;

	*null = 'n';
	if (v == NULL || v->type == jbvNull)
		return (Datum) 0;
	if (v->type == jbvString)
		s = pnstrdup(v->val.string.val, v->val.string.len);
	else if (v->type == jbvNumeric)
		s = DatumGetCString(DirectFunctionCall1(numeric_out, NumericGetDatum(v->val.numeric)));
	else if (v->type == jbvBool)
		s = v->val.boolean ? "true" : "false";
	else
		s = JsonbToCString(NULL, v->val.binary.data, v->val.binary.len);
	*null = ' ';
	return CStringGetTextDatum(wp_text_line(s, strlen(s)));
}

/*
 * The next fleet run's id (fleet_runs_run_id_seq, the owner's); inside SPI.
 */
int64
wp_fleet_next_run_id(void)
{
	bool		isnull;

	if (wp_fleet_as_owner("SELECT pg_catalog.nextval('walpressure.fleet_runs_run_id_seq')",
						  0, NULL, NULL, NULL, false) != SPI_OK_SELECT || SPI_processed != 1)
		elog(ERROR, "could not number the fleet run");
	return DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
}

/*
 * fleet_run()'s rows, made for the caller in this session (run_by, pid,
 * backend_start: the rows the gates below let this call, and only it,
 * write); inside SPI.
 */
void
wp_fleet_insert_run(int64 run_id, Datum sweep, Datum servers, Datum lost_after)
{
	Datum		args[7] = {Int64GetDatum(run_id), sweep, servers, lost_after,
						   CStringGetDatum(GetUserNameFromId(GetUserId(), false)),
						   Int32GetDatum(MyProcPid), TimestampTzGetDatum(MyStartTimestamp)};

	args[4] = DirectFunctionCall1(namein, args[4]);
	if (wp_fleet_as_owner("INSERT INTO walpressure.fleet_runs (run_id, sweep, servers, lost_after, run_by, pid, "
						  "backend_start) VALUES ($1, $2, $3, $4, $5, $6, $7)", 7,
						  (Oid[]) {INT8OID, JSONBOID, TEXTARRAYOID, INTERVALOID, NAMEOID, INT4OID, TIMESTAMPTZOID},
						  args, NULL, false) != SPI_OK_INSERT ||
		wp_fleet_as_owner("INSERT INTO walpressure.fleet_members (run_id, server) "
						  "SELECT $1, x FROM pg_catalog.unnest($2) AS x", 2,
						  (Oid[]) {INT8OID, TEXTARRAYOID}, (Datum[]) {args[0], servers},
						  NULL, false) != SPI_OK_INSERT)
		elog(ERROR, "could not record the fleet run");
}

/*
 * fleet_cancel()'s request, for the servers of run_id (NULL: all), once the
 * caller was found allowed; inside SPI.  Returns how many were asked.
 */
int64
wp_fleet_ask_cancel(int64 run_id, Datum servers, bool all)
{
	bool		isnull;

	if (wp_fleet_as_owner("WITH asked AS (UPDATE walpressure.fleet_members m SET cancel_requested = true "
						  "WHERE m.run_id = $1 AND ($2 IS NULL OR m.server = ANY ($2)) "
						  "AND m.state IN ('connecting', 'running') RETURNING 1) "
						  "SELECT pg_catalog.count(*) FROM asked", 2,
						  (Oid[]) {INT8OID, TEXTARRAYOID}, (Datum[]) {Int64GetDatum(run_id), servers},
						  all ? " n" : "  ", false) != SPI_OK_SELECT || SPI_processed != 1)
		elog(ERROR, "could not ask for the cancel");
	return DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
}

/*
 * fleet_register()'s row for server (a foreign server the caller may reach
 * the fleet's way, checked by the caller), with who answered (NULL: not
 * asked); inside SPI.  Returns the row, in the caller's memory.
 */
Datum
wp_fleet_record_server(Datum server, Datum who, bool asked)
{
	bool		isnull;
	Datum		row;

	if (wp_fleet_as_owner("SELECT r FROM walpressure._fleet_write_server($1, $2) r", 2,
						  (Oid[]) {TEXTOID, JSONBOID}, (Datum[]) {server, who},
						  asked ? "  " : " n", false) != SPI_OK_SELECT || SPI_processed != 1)
		elog(ERROR, "could not register the server");
	row = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
	return SPI_datumTransfer(row, false, -1);
}

/*
 * May this call write fleet run run_id's rows?  Only the fleet_run() call
 * of this backend that runs it, for the role that started it, in the
 * session its row names; inside SPI.
 */
static void
wp_fleet_check_run(int64 run_id)
{
	bool		mine = false;

	if (wp_fleet_scope.kind == WP_FLEET_RUN && wp_fleet_scope.run_id == run_id &&
		wp_fleet_scope.role == GetUserId())
	{
		bool		isnull[4];
		Datum		v[4];

		if (wp_fleet_as_owner("SELECT r.run_by::text, r.pid, r.backend_start, r.status = 'running' "
							  "FROM walpressure.fleet_runs r WHERE r.run_id = $1",
							  1, (Oid[]) {INT8OID}, (Datum[]) {Int64GetDatum(run_id)}, NULL,
							  true) != SPI_OK_SELECT)
			elog(ERROR, "could not read walpressure.fleet_runs");
		if (SPI_processed == 1)
		{
			for (int i = 0; i < 4; i++)
				v[i] = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, i + 1, &isnull[i]);
			mine = !isnull[0] && !isnull[1] && !isnull[2] && !isnull[3] &&
				strcmp(TextDatumGetCString(v[0]), GetUserNameFromId(GetUserId(), false)) == 0 &&
				DatumGetInt32(v[1]) == MyProcPid &&
				DatumGetTimestampTz(v[2]) == MyStartTimestamp &&
				DatumGetBool(v[3]);
		}
	}
	if (!mine)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("fleet run " INT64_FORMAT " is not run by this call", run_id),
				 errdetail("A fleet run's rows are written only by the fleet_run() call that runs it, in the session that started it."),
				 errhint("fleet_cancel() asks that session to cancel the run's sweeps.")));
}

/*
 * May this call record what server answered?  Only fleet_run() or
 * fleet_collect() of this backend, for a server the caller may reach the
 * fleet's way.
 */
static void
wp_fleet_check_answer(text *server)
{
	if ((wp_fleet_scope.kind != WP_FLEET_RUN && wp_fleet_scope.kind != WP_FLEET_COLLECT) ||
		wp_fleet_scope.role != GetUserId())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("what a server of the fleet answered is recorded only by fleet_run() and fleet_collect()"),
				 errhint("SELECT * FROM walpressure.fleet_collect(); gathers a server's sweeps.")));
	(void) wp_fleet_server(text_to_cstring(server), false);
}

/*
 * _fleet_in_call(run_id bigint): raises unless this is the fleet_run() call
 * that runs run_id (NULL: a fleet_collect() call), so that the SQL behind
 * them, which an operator may execute, connects to no server when called
 * on its own (and so through no mapping fleet_run() did not check).
 */
Datum
wp_fleet_in_call(PG_FUNCTION_ARGS)
{
	if (PG_ARGISNULL(0))
	{
		if (wp_fleet_scope.kind != WP_FLEET_COLLECT || wp_fleet_scope.role != GetUserId())
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("_fleet_collect() runs only within fleet_collect()"),
					 errhint("SELECT * FROM walpressure.fleet_collect();")));
	}
	else
	{
		SPI_connect();
		wp_fleet_check_run(PG_GETARG_INT64(0));
		SPI_finish();
	}
	PG_RETURN_VOID();
}

/* The columns of fleet_members a fleet run sets (_fleet_member_set). */
static const char *const wp_fleet_member_columns[] = {
	"state", "system_identifier", "remote_pid", "remote_sweep_id", "step", "steps_done",
	"steps_total", "value", "phase", "estimated_end", "detail", "started_at", "last_heard",
	"ended_at"
};

/*
 * _fleet_member_set(run_id bigint, server text, changes jsonb): set the
 * columns changes names (a JSON null sets NULL) of a server's row of the
 * fleet run this call runs.  Not cancel_requested (fleet_cancel's), nor the
 * sweep here (_fleet_gather derives it).
 */
Datum
wp_fleet_member_set(PG_FUNCTION_ARGS)
{
	int64		run_id = PG_GETARG_INT64(0);
	Jsonb	   *changes = PG_GETARG_JSONB_P(2);
	/* the texts a server sent, cleaned ($4 to $7) */
	static const char *const texts[] = {"system_identifier", "value", "phase", "detail"};
	Datum		args[7] = {PG_GETARG_DATUM(0), PG_GETARG_DATUM(1), JsonbPGetDatum(changes)};
	char		nulls[8] = "       ";
	JsonbIterator *it;
	JsonbValue	v;
	JsonbIteratorToken tok;

	if (!JB_ROOT_IS_OBJECT(changes))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("changes must be a JSON object")));
	it = JsonbIteratorInit(&changes->root);
	while ((tok = JsonbIteratorNext(&it, &v, true)) != WJB_DONE)
	{
		bool		known = false;

		if (tok != WJB_KEY)
			continue;
		for (int i = 0; i < lengthof(wp_fleet_member_columns); i++)
			known |= strlen(wp_fleet_member_columns[i]) == v.val.string.len &&
				strncmp(wp_fleet_member_columns[i], v.val.string.val, v.val.string.len) == 0;
		if (!known)
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("a fleet run does not set %s of its servers' rows",
							pnstrdup(v.val.string.val, v.val.string.len))));
	}
	for (int i = 0; i < lengthof(texts); i++)
		args[3 + i] = wp_fleet_line_of(changes, texts[i], &nulls[3 + i]);
	SPI_connect();
	wp_fleet_check_run(run_id);
	if (wp_fleet_as_owner("UPDATE walpressure.fleet_members m "
						  "SET (state, system_identifier, remote_pid, remote_sweep_id, step, steps_done, "
						  "     steps_total, value, phase, estimated_end, detail, started_at, last_heard, ended_at) "
						  "  = (SELECT r.state, CASE WHEN $3 ? 'system_identifier' THEN $4 ELSE m.system_identifier END, "
						  "            r.remote_pid, r.remote_sweep_id, r.step, r.steps_done, r.steps_total, "
						  "            CASE WHEN $3 ? 'value' THEN $5 ELSE m.value END, "
						  "            CASE WHEN $3 ? 'phase' THEN $6 ELSE m.phase END, r.estimated_end, "
						  "            CASE WHEN $3 ? 'detail' THEN $7 ELSE m.detail END, "
						  "            r.started_at, r.last_heard, r.ended_at "
						  "     FROM pg_catalog.jsonb_populate_record(m, $3) r) "
						  "WHERE m.run_id = $1 AND m.server = $2", 7,
						  (Oid[]) {INT8OID, TEXTOID, JSONBOID, TEXTOID, TEXTOID, TEXTOID, TEXTOID},
						  args, nulls, false) != SPI_OK_UPDATE)
		elog(ERROR, "could not write the fleet run's row");
	SPI_finish();
	PG_RETURN_VOID();
}

/*
 * _fleet_run_end(run_id bigint, status text): the fleet run this call runs
 * ended, done or cancelled.
 */
Datum
wp_fleet_run_end(PG_FUNCTION_ARGS)
{
	char	   *status = text_to_cstring(PG_GETARG_TEXT_PP(1));

	if (strcmp(status, "done") != 0 && strcmp(status, "cancelled") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("a fleet run ends done or cancelled, not %s", status)));
	SPI_connect();
	wp_fleet_check_run(PG_GETARG_INT64(0));
	if (wp_fleet_as_owner("UPDATE walpressure.fleet_runs r SET status = $2, finished_at = pg_catalog.clock_timestamp() "
						  "WHERE r.run_id = $1 AND r.status = 'running'", 2,
						  (Oid[]) {INT8OID, TEXTOID}, (Datum[]) {PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)},
						  NULL, false) != SPI_OK_UPDATE)
		elog(ERROR, "could not end the fleet run");
	SPI_finish();
	PG_RETURN_VOID();
}

/*
 * _fleet_answered(server text, who jsonb): what a registered server
 * answered when asked who it is (_fleet_who), in its row of fleet_servers.
 */
Datum
wp_fleet_answered(PG_FUNCTION_ARGS)
{
	Jsonb	   *who = PG_GETARG_JSONB_P(1);
	Datum		args[4] = {PG_GETARG_DATUM(0)};
	char		nulls[5] = "    ";

	wp_fleet_check_answer(PG_GETARG_TEXT_PP(0));
	args[1] = wp_fleet_line_of(who, "system_identifier", &nulls[1]);
	args[2] = wp_fleet_line_of(who, "server_version", &nulls[2]);
	args[3] = wp_fleet_line_of(who, "walpressure", &nulls[3]);
	SPI_connect();
	/* its versions, and its cluster when none was known; not another cluster's */
	if (wp_fleet_as_owner("UPDATE walpressure.fleet_servers f "
						  "SET system_identifier = coalesce(f.system_identifier, $2), "
						  "server_version = $3, walpressure_version = $4, answered_at = pg_catalog.clock_timestamp() "
						  "WHERE f.server = $1 AND (f.system_identifier IS NULL OR f.system_identifier = $2)", 4,
						  (Oid[]) {TEXTOID, TEXTOID, TEXTOID, TEXTOID}, args, nulls, false) != SPI_OK_UPDATE)
		elog(ERROR, "could not record what the server answered");
	SPI_finish();
	PG_RETURN_VOID();
}

/*
 * The one row of sql, run as the owner with args (types, nulls as SPI
 * takes them): its first column (*isnull when NULL or no row); inside SPI.
 */
static Datum
wp_fleet_owner_value(const char *sql, int nargs, Oid *types, Datum *args, const char *nulls, bool *isnull)
{
	if (wp_fleet_as_owner(sql, nargs, types, args, nulls, false) != SPI_OK_SELECT || SPI_processed > 1)
		elog(ERROR, "could not read the fleet's rows");
	*isnull = true;
	if (SPI_processed == 0)
		return (Datum) 0;
	return SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, isnull);
}

/*
 * Sweep remote_id of server, exported there (doc), into this database: the
 * document must be that sweep, ended, of the cluster registered under that
 * name; import() checks it in C and makes it a sweep here, keyed by the
 * server and its id there in fleet_sweeps (from the sweep's origin),
 * linked to the fleet run that started it (run_id: one with that server),
 * whose row of fleet_members gets its id here and its status.  A sweep
 * gathered before is not brought twice.  Returns its id here; inside SPI.
 */
static int64
wp_fleet_write_sweep(Datum server, Datum remote_id, Datum run_id, char run_null, Datum doc)
{
	const char *name = TextDatumGetCString(server);
	char		nulls[4] = {' ', ' ', ' ', run_null};
	bool		isnull;
	Datum		registered;
	Datum		here;

	registered = wp_fleet_owner_value("SELECT f.system_identifier FROM walpressure.fleet_servers f WHERE f.server = $1",
									  1, (Oid[]) {TEXTOID}, &server, NULL, &isnull);
	if (isnull)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("server %s has no cluster registered", name),
				 errhint("SELECT walpressure.fleet_register(%s); records the one that answers.",
						 quote_literal_cstr(name))));
	registered = datumCopy(registered, false, -1);
	here = wp_fleet_owner_value("SELECT f.sweep_id FROM walpressure.fleet_sweeps f "
								"WHERE f.server = $1 AND f.remote_sweep_id = $2",
								2, (Oid[]) {TEXTOID, INT8OID}, (Datum[]) {server, remote_id}, NULL, &isnull);
	if (isnull)
	{
		/* what the document is: 0 no object, 1 another sweep, 2 running, 3 the one asked for */
		int32		what = DatumGetInt32(wp_fleet_owner_value(
			"SELECT CASE WHEN pg_catalog.jsonb_typeof($1) IS DISTINCT FROM 'object' THEN 0 "
			"WHEN $1 #>> '{server,system_identifier}' IS DISTINCT FROM $2 "
			"  OR $1 #>> '{sweep,sweep_id}' IS DISTINCT FROM $3::text THEN 1 "
			"WHEN $1 #>> '{sweep,status}' = 'running' THEN 2 ELSE 3 END",
			3, (Oid[]) {JSONBOID, TEXTOID, INT8OID}, (Datum[]) {doc, registered, remote_id}, NULL, &isnull));

		if (what < 3)
			ereport(ERROR,
					(errcode(what == 2 ? ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE : ERRCODE_DATA_EXCEPTION),
					 what == 0 ? errmsg("export(" INT64_FORMAT ") there returned no document", DatumGetInt64(remote_id)) :
					 what == 1 ? errmsg("export(" INT64_FORMAT ") there returned another sweep than the one asked for",
										DatumGetInt64(remote_id)) :
					 errmsg("sweep " INT64_FORMAT " there still runs", DatumGetInt64(remote_id))));
		here = wp_fleet_owner_value("SELECT walpressure.import($1)", 1, (Oid[]) {JSONBOID}, &doc, NULL, &isnull);
		/* its key, from what import() made of it */
		if (!DatumGetBool(wp_fleet_owner_value("SELECT s.origin->>'system_identifier' = $2 "
											   "AND s.origin->>'sweep_id' = $3::text "
											   "FROM walpressure.sweeps s WHERE s.sweep_id = $1",
											   3, (Oid[]) {INT8OID, TEXTOID, INT8OID},
											   (Datum[]) {here, registered, remote_id}, NULL, &isnull)) || isnull)
			ereport(ERROR,
					(errcode(ERRCODE_DATA_EXCEPTION),
					 errmsg("sweep " INT64_FORMAT " here is not sweep " INT64_FORMAT " of server %s",
							DatumGetInt64(here), DatumGetInt64(remote_id), name)));
		if (wp_fleet_as_owner("INSERT INTO walpressure.fleet_sweeps (server, remote_sweep_id, remote_started_at, "
							  "system_identifier, sweep_id, run_id) "
							  "SELECT $1, (s.origin->>'sweep_id')::bigint, s.started_at, s.origin->>'system_identifier', $2, "
							  "       (SELECT m.run_id FROM walpressure.fleet_members m WHERE m.run_id = $3 AND m.server = $1) "
							  "FROM walpressure.sweeps s WHERE s.sweep_id = $2",
							  3, (Oid[]) {TEXTOID, INT8OID, INT8OID}, (Datum[]) {server, here, run_id},
							  (char[]) {' ', ' ', run_null}, false) != SPI_OK_INSERT)
			elog(ERROR, "could not key the sweep in walpressure.fleet_sweeps");
	}
	/* the fleet run that started it, also when it never heard the sweep's id */
	if (wp_fleet_as_owner("UPDATE walpressure.fleet_members m "
						  "SET remote_sweep_id = $2, sweep_id = $3, sweep_status = s.status, steps_done = s.steps_done, "
						  "    steps_total = s.steps_total "
						  "FROM walpressure.sweeps s "
						  "WHERE s.sweep_id = $3 AND m.server = $1 "
						  "  AND (m.remote_sweep_id = $2 OR (m.remote_sweep_id IS NULL AND m.run_id = $4))",
						  4, (Oid[]) {TEXTOID, INT8OID, INT8OID, INT8OID}, (Datum[]) {server, remote_id, here, run_id},
						  nulls, false) != SPI_OK_UPDATE)
		elog(ERROR, "could not write the sweep's fleet run");
	return DatumGetInt64(here);
}

/*
 * _fleet_gather(server text, remote_id bigint, run_id bigint, doc jsonb)
 * returns bigint: sweep remote_id of server, as export() there gave it,
 * made a sweep here by import() (which checks it in C) and keyed in
 * fleet_sweeps by what import() made of it (wp_fleet_write_sweep).  During
 * a fleet run, for that run only.
 */
Datum
wp_fleet_gather(PG_FUNCTION_ARGS)
{
	int64		here;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1) || PG_ARGISNULL(3))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("server, remote_id and doc must not be NULL")));
	wp_fleet_check_answer(PG_GETARG_TEXT_PP(0));
	if (wp_fleet_scope.kind == WP_FLEET_RUN && (PG_ARGISNULL(2) || PG_GETARG_INT64(2) != wp_fleet_scope.run_id))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("a fleet run gathers its own sweeps only")));
	SPI_connect();
	here = wp_fleet_write_sweep(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1), PG_GETARG_DATUM(2),
								PG_ARGISNULL(2) ? 'n' : ' ', PG_GETARG_DATUM(3));
	SPI_finish();
	PG_RETURN_INT64(here);
}

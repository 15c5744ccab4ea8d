/*-------------------------------------------------------------------------
 *
 * standby.c
 *		The standby's own side of a step, over libpq: run_sweep's
 *		standby_conninfo.
 *
 * run_sweep checks the connection as the caller: it must reach a server in
 * recovery, and a role without superuser must give a password that the
 * connection used (as dblink requires: the server's own credentials, its
 * Unix-socket peer identity and its password file, are not the caller's).
 * The coordinator connects at its first step and reads, at each window's
 * edges, the standby's WAL writes and fsyncs: from its walpressure sampler
 * when the standby preloads walpressure (with its disk's write IOPS), else
 * from pg_stat_wal (pg_stat_io from 18).  Every call has a deadline and
 * waits on the latch: a standby that stops answering costs the step those
 * figures, never a hang.
 *
 * IDENTIFICATION
 *	  src/standby.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "libpq-fe.h"
#include "miscadmin.h"
#include "lib/stringinfo.h"
#include "storage/latch.h"
#include "utils/timestamp.h"
#include "utils/wait_event.h"

#include "replication.h"

#define WP_STANDBY_TIMEOUT_MS	3000

/* options a role without superuser may not give: they read the server's files */
static const char *const wp_server_file_options[] = {
	"passfile", "service", "sslcert", "sslkey", "sslpassword", "sslrootcert", "sslcrl", "sslcrldir"
};

static PGconn *wp_conn = NULL;

/* libpq's message, without its trailing newline. */
static char *
wp_pq_message(const char *msg)
{
	char	   *m = pstrdup(msg ? msg : "");
	int			len = strlen(m);

	while (len > 0 && (m[len - 1] == '\n' || m[len - 1] == ' '))
		m[--len] = '\0';
	return m;
}

/* Wait for the socket (or the deadline); false when it passed. */
static bool
wp_socket_wait(PGconn *conn, bool write, TimestampTz deadline)
{
	long		left = TimestampDifferenceMilliseconds(GetCurrentTimestamp(), deadline);
	int			rc;

	if (left <= 0)
		return false;
	rc = WaitLatchOrSocket(MyLatch,
						   WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH |
						   (write ? WL_SOCKET_WRITEABLE : WL_SOCKET_READABLE),
						   PQsocket(conn), left, PG_WAIT_EXTENSION);
	if (rc & WL_LATCH_SET)
		ResetLatch(MyLatch);
	CHECK_FOR_INTERRUPTS();
	return true;
}

/* Connect within the deadline; NULL with the reason in *err. */
static PGconn *
wp_connect(const char *conninfo, char **err)
{
	TimestampTz deadline = TimestampTzPlusMilliseconds(GetCurrentTimestamp(), WP_STANDBY_TIMEOUT_MS);
	PGconn	   *conn = PQconnectStart(conninfo);
	PostgresPollingStatusType st = PGRES_POLLING_WRITING;

	if (conn == NULL)
	{
		*err = "out of memory";
		return NULL;
	}
	while (PQstatus(conn) != CONNECTION_BAD && st != PGRES_POLLING_OK &&
		   st != PGRES_POLLING_FAILED)
	{
		if (!wp_socket_wait(conn, st == PGRES_POLLING_WRITING, deadline))
		{
			*err = psprintf("no answer within %d s", WP_STANDBY_TIMEOUT_MS / 1000);
			PQfinish(conn);
			return NULL;
		}
		st = PQconnectPoll(conn);
	}
	if (PQstatus(conn) != CONNECTION_OK)
	{
		*err = wp_pq_message(PQerrorMessage(conn));
		PQfinish(conn);
		return NULL;
	}
	return conn;
}

/*
 * Run one query within the deadline: its tuples, or NULL with the reason
 * in *err.  The caller PQclears the result.
 */
static PGresult *
wp_query(PGconn *conn, const char *sql, char **err)
{
	TimestampTz deadline = TimestampTzPlusMilliseconds(GetCurrentTimestamp(), WP_STANDBY_TIMEOUT_MS);
	PGresult   *res = NULL;
	PGresult   *r;

	if (!PQsendQuery(conn, sql))
	{
		*err = wp_pq_message(PQerrorMessage(conn));
		return NULL;
	}
	for (;;)
	{
		while (PQisBusy(conn))
		{
			if (!wp_socket_wait(conn, false, deadline))
			{
				*err = psprintf("no answer within %d s", WP_STANDBY_TIMEOUT_MS / 1000);
				if (res)
					PQclear(res);
				return NULL;
			}
			if (!PQconsumeInput(conn))
			{
				*err = wp_pq_message(PQerrorMessage(conn));
				if (res)
					PQclear(res);
				return NULL;
			}
		}
		r = PQgetResult(conn);
		if (r == NULL)
			break;
		if (res)
			PQclear(res);
		res = r;
	}
	if (res == NULL || PQresultStatus(res) != PGRES_TUPLES_OK)
	{
		*err = wp_pq_message(res ? PQresultErrorMessage(res) : PQerrorMessage(conn));
		if (res)
			PQclear(res);
		return NULL;
	}
	return res;
}

/*
 * Check standby_conninfo as the caller and keep it in the request: it
 * parses, a role without superuser gives a password (and no option naming
 * the server's files), and it reaches a server in recovery.
 */
void
wp_request_standby_conninfo(WpSweepRequest *req, const char *conninfo)
{
	char	   *perr = NULL;
	PQconninfoOption *opts;
	bool		has_password = false;
	PGconn	   *conn;
	PGresult   *res;
	char	   *err;
	bool		super = superuser();

	if (strlen(conninfo) >= sizeof(req->standby_conninfo))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("standby_conninfo is longer than %d bytes",
						(int) sizeof(req->standby_conninfo) - 1)));
	opts = PQconninfoParse(conninfo, &perr);
	if (opts == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("standby_conninfo is not a connection string: %s",
						perr ? wp_pq_message(perr) : "out of memory"),
				 errhint("For example standby_conninfo => 'host=10.0.0.2 port=5432 dbname=postgres user=monitor password=...'.")));
	for (PQconninfoOption *o = opts; o->keyword; o++)
	{
		if (o->val == NULL || o->val[0] == '\0')
			continue;
		if (strcmp(o->keyword, "password") == 0)
			has_password = true;
		for (int i = 0; !super && i < lengthof(wp_server_file_options); i++)
			if (strcmp(o->keyword, wp_server_file_options[i]) == 0)
			{
				PQconninfoFree(opts);
				ereport(ERROR,
						(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
						 errmsg("only a superuser may give %s in standby_conninfo", wp_server_file_options[i]),
						 errdetail("It names a file of the server's, which the connection would use as its own.")));
			}
	}
	PQconninfoFree(opts);
	if (!super && !has_password)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("standby_conninfo must give a password"),
				 errdetail("The server connects to the standby: without a password it would use the server's own credentials, which are not yours."),
				 errhint("Add password=... for a role of the standby, or have a superuser run the sweep.")));

	conn = wp_connect(conninfo, &err);
	if (conn == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION),
				 errmsg("could not connect to the standby of standby_conninfo"),
				 errdetail("%s", err)));
	if (!super && !PQconnectionUsedPassword(conn))
	{
		PQfinish(conn);
		ereport(ERROR,
				(errcode(ERRCODE_S_R_E_PROHIBITED_SQL_STATEMENT_ATTEMPTED),
				 errmsg("the standby did not ask for the password of standby_conninfo"),
				 errdetail("A role without superuser may connect only with a password the standby checks."),
				 errhint("Have the standby's pg_hba.conf ask this role for a password.")));
	}
	res = wp_query(conn, "SELECT pg_catalog.pg_is_in_recovery()", &err);
	if (res == NULL || PQntuples(res) != 1 || strcmp(PQgetvalue(res, 0, 0), "t") != 0)
	{
		if (res)
			PQclear(res);
		PQfinish(conn);
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("standby_conninfo reaches a server that is not a standby"),
				 errdetail("%s", res ? "pg_is_in_recovery() is false there." : err)));
	}
	PQclear(res);
	PQfinish(conn);
	strlcpy(req->standby_conninfo, conninfo, sizeof(req->standby_conninfo));
}

/*
 * standby_conninfo as the sweeps table keeps it: without its password.
 */
char *
wp_conninfo_redacted(const char *conninfo)
{
	PQconninfoOption *opts = PQconninfoParse(conninfo, NULL);
	StringInfoData out;

	if (opts == NULL)
		return pstrdup("");
	initStringInfo(&out);
	for (PQconninfoOption *o = opts; o->keyword; o++)
	{
		if (o->val == NULL || o->val[0] == '\0' || strcmp(o->keyword, "password") == 0)
			continue;
		appendStringInfo(&out, "%s%s='", out.len > 0 ? " " : "", o->keyword);
		for (const char *c = o->val; *c; c++)
		{
			if (*c == '\'' || *c == '\\')
				appendStringInfoChar(&out, '\\');
			appendStringInfoChar(&out, *c);
		}
		appendStringInfoChar(&out, '\'');
	}
	PQconninfoFree(opts);
	return out.data;
}

/* The figures a window's edge reads, and how. */
typedef struct WpStandbyEdge
{
	TimestampTz at;
	const char *source;
	double		received;		/* WAL received and flushed, bytes from 0/0 */
	double		writes;
	double		fsyncs;
} WpStandbyEdge;

static bool
wp_standby_ensure(const char *conninfo)
{
	char	   *err;

	if (wp_conn != NULL && PQstatus(wp_conn) == CONNECTION_OK)
		return true;
	if (wp_conn != NULL)
		PQfinish(wp_conn);
	wp_conn = wp_connect(conninfo, &err);
	if (wp_conn == NULL)
		ereport(LOG,
				(errmsg("walpressure could not connect to the standby: %s", err)));
	return wp_conn != NULL;
}

/*
 * One edge: the standby's clock, and its WAL writes and fsyncs so far
 * (pg_stat_wal; pg_stat_io from 18).  With walpressure preloaded there, the
 * window's figures come from its sampler instead (wp_standby_window_end).
 */
static WpStandbyEdge *
wp_standby_edge(void)
{
	PGresult   *res;
	char	   *err;
	WpStandbyEdge *e;

	res = wp_query(wp_conn,
				   "SELECT extract(epoch FROM pg_catalog.clock_timestamp()),"
				   " CASE WHEN pg_catalog.current_setting('server_version_num')::int >= 180000"
				   "  THEN 'pg_stat_io' ELSE 'pg_stat_wal' END,"
				   " EXISTS (SELECT FROM pg_catalog.pg_extension WHERE extname = 'walpressure')"
				   "  AND pg_catalog.current_setting('shared_preload_libraries') ~ 'walpressure'"
				   "  AND pg_catalog.has_function_privilege('walpressure.sample_rows()', 'EXECUTE'),"
				   " pg_catalog.pg_wal_lsn_diff(pg_catalog.pg_last_wal_receive_lsn(), '0/0')",
				   &err);
	if (res == NULL)
	{
		ereport(LOG, (errmsg("walpressure could not read the standby: %s", err)));
		return NULL;
	}
	e = palloc0(sizeof(WpStandbyEdge));
	e->at = (TimestampTz) (strtod(PQgetvalue(res, 0, 0), NULL) * USECS_PER_SEC);
	e->source = strcmp(PQgetvalue(res, 0, 2), "t") == 0 ? "walpressure" :
		strcmp(PQgetvalue(res, 0, 1), "pg_stat_io") == 0 ? "pg_stat_io" : "pg_stat_wal";
	e->received = PQgetisnull(res, 0, 3) ? -1 : strtod(PQgetvalue(res, 0, 3), NULL);
	PQclear(res);
	if (strcmp(e->source, "walpressure") == 0)
		return e;
	res = wp_query(wp_conn, strcmp(e->source, "pg_stat_io") == 0 ?
				   "SELECT sum(writes), sum(fsyncs) FROM pg_catalog.pg_stat_io WHERE object = 'wal'" :
				   "SELECT wal_write, wal_sync FROM pg_catalog.pg_stat_wal", &err);
	if (res == NULL || PQntuples(res) != 1)
	{
		ereport(LOG, (errmsg("walpressure could not read the standby's WAL statistics: %s",
							 res ? "no row" : err)));
		if (res)
			PQclear(res);
		return NULL;
	}
	e->writes = strtod(PQgetvalue(res, 0, 0), NULL);
	e->fsyncs = strtod(PQgetvalue(res, 0, 1), NULL);
	PQclear(res);
	return e;
}

/* The window's start on the standby; NULL when it cannot be read. */
void *
wp_standby_window_begin(const char *conninfo)
{
	if (conninfo == NULL || conninfo[0] == '\0' || !wp_standby_ensure(conninfo))
		return NULL;
	return wp_standby_edge();
}

/*
 * The standby's figures over the window that started at `begin`: its
 * sampler's intervals that ended in it, or the difference of its WAL
 * statistics.  Unknown figures stay < 0.
 */
void
wp_standby_window_end(void *begin, double seconds, WpStandbySide *side)
{
	WpStandbyEdge *b = begin;
	WpStandbyEdge *e;

	side->wal_mb_per_s = side->wal_writes_per_s = side->wal_fsyncs_per_s = side->write_iops = -1;
	side->source = NULL;
	if (b == NULL || wp_conn == NULL || (e = wp_standby_edge()) == NULL)
		return;
	side->source = e->source;
	if (e->at > b->at && b->received >= 0 && e->received >= b->received)
		side->wal_mb_per_s = (e->received - b->received) / (1024.0 * 1024.0) /
			((double) (e->at - b->at) / USECS_PER_SEC);
	if (strcmp(e->source, "walpressure") == 0)
	{
		char	   *err;
		char	   *sql = psprintf("SELECT sum(wal_writes), sum(wal_fsyncs), sum(write_iops * seconds),"
								   " sum(seconds) FILTER (WHERE write_iops IS NOT NULL), sum(seconds)"
								   " FROM walpressure.sample_rows()"
								   " WHERE sample_time > pg_catalog.to_timestamp(%.6f)"
								   " AND sample_time <= pg_catalog.to_timestamp(%.6f)",
								   (double) b->at / USECS_PER_SEC, (double) e->at / USECS_PER_SEC);
		PGresult   *res = wp_query(wp_conn, sql, &err);
		double		secs;

		if (res == NULL || PQntuples(res) != 1 || PQgetisnull(res, 0, 4))
		{
			if (res)
				PQclear(res);
			return;
		}
		secs = strtod(PQgetvalue(res, 0, 4), NULL);
		if (secs > 0)
		{
			side->wal_writes_per_s = strtod(PQgetvalue(res, 0, 0), NULL) / secs;
			side->wal_fsyncs_per_s = strtod(PQgetvalue(res, 0, 1), NULL) / secs;
		}
		if (!PQgetisnull(res, 0, 2) && strtod(PQgetvalue(res, 0, 3), NULL) > 0)
			side->write_iops = strtod(PQgetvalue(res, 0, 2), NULL) /
				strtod(PQgetvalue(res, 0, 3), NULL);
		PQclear(res);
		return;
	}
	seconds = (double) (e->at - b->at) / USECS_PER_SEC;
	if (seconds > 0)
	{
		side->wal_writes_per_s = (e->writes - b->writes) / seconds;
		side->wal_fsyncs_per_s = (e->fsyncs - b->fsyncs) / seconds;
	}
}

/* At the sweep's end (and on exit: libpq's socket is the process's). */
void
wp_standby_disconnect(void)
{
	if (wp_conn != NULL)
		PQfinish(wp_conn);
	wp_conn = NULL;
}

/*-------------------------------------------------------------------------
 *
 * standby_link.c
 *		The standby's own side of a step, over libpq: run_sweep's
 *		standby_conninfo.
 *
 * Only a superuser may give it: the connection is the server's, made with
 * the server's own credentials (its Unix-socket peer identity, password
 * file, client certificates, Kerberos cache), from the database host; a
 * role without superuser would reach, with them, what it cannot reach
 * itself.  run_sweep checks that it parses and reaches a server in
 * recovery.  The coordinator connects at its first step and reads, at each
 * window's edges, the WAL the standby received and its WAL writes and
 * fsyncs: from its walpressure sampler when the standby preloads
 * walpressure (with its disk's write IOPS), else from pg_stat_wal
 * (pg_stat_io from 18).  Every call has a deadline and waits on the latch
 * (name resolution excepted: give the standby's address); a standby that
 * stops answering costs the step those figures, never a hang.  What the
 * standby sends back is checked before it is read: a server that answers
 * with other columns, rows or types costs the figures, not the process.
 *
 * IDENTIFICATION
 *	  src/system/standby_link.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "libpq-fe.h"
#include "miscadmin.h"
#include "lib/stringinfo.h"
#include "storage/latch.h"
#include "utils/timestamp.h"
#include "utils/wait_event.h"

#include "system/standby_link.h"
#include "system/walsenders.h"

#define WP_STANDBY_TIMEOUT_MS	3000

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

static void
wp_notice_ignore(void *arg, const char *message)
{
}

/*
 * A result of `rows` rows of `cols` columns, none NULL: the only shape this
 * file reads.  Anything else (a server that is not the standby it claims
 * to be) is refused before PQgetvalue, which returns NULL out of range.
 */
static bool
wp_result_shape(const PGresult *res, int rows, int cols)
{
	if (res == NULL || PQresultStatus(res) != PGRES_TUPLES_OK ||
		PQntuples(res) != rows || PQnfields(res) != cols)
		return false;
	for (int r = 0; r < rows; r++)
		for (int c = 0; c < cols; c++)
			if (PQgetisnull(res, r, c))
				return false;
	return true;
}

/* A number the standby sent; false when it is not a finite one. */
static bool
wp_result_number(const PGresult *res, int row, int col, double *out)
{
	char	   *end;
	const char *v = PQgetvalue(res, row, col);

	if (v == NULL)
		return false;
	*out = strtod(v, &end);
	return end != v && *end == '\0' && isfinite(*out);
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
	/* the standby's notices go nowhere (libpq's default prints them on stderr) */
	PQsetNoticeProcessor(conn, wp_notice_ignore, NULL);
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
		/* secrets (password, sslpassword, ...) are the options libpq hides */
		if (o->val == NULL || o->val[0] == '\0' || strcmp(o->keyword, "password") == 0 ||
			(o->dispchar != NULL && strchr(o->dispchar, '*') != NULL))
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
	double		epoch;

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
		/* a query cut by its deadline may still run there: a new connection next time */
		ereport(LOG, (errmsg("walpressure could not read the standby: %s", err)));
		wp_standby_disconnect();
		return NULL;
	}
	e = palloc0(sizeof(WpStandbyEdge));
	if (!wp_result_shape(res, 1, 4) || !wp_result_number(res, 0, 0, &epoch) ||
		!wp_result_number(res, 0, 3, &e->received))
	{
		ereport(LOG, (errmsg("walpressure could not read the standby: it answered with something else")));
		PQclear(res);
		return NULL;
	}
	e->at = (TimestampTz) (epoch * USECS_PER_SEC);
	e->source = strcmp(PQgetvalue(res, 0, 2), "t") == 0 ? "walpressure" :
		strcmp(PQgetvalue(res, 0, 1), "pg_stat_io") == 0 ? "pg_stat_io" : "pg_stat_wal";
	PQclear(res);
	if (strcmp(e->source, "walpressure") == 0)
		return e;
	res = wp_query(wp_conn, strcmp(e->source, "pg_stat_io") == 0 ?
				   "SELECT sum(writes), sum(fsyncs) FROM pg_catalog.pg_stat_io WHERE object = 'wal'" :
				   "SELECT wal_write, wal_sync FROM pg_catalog.pg_stat_wal", &err);
	if (res == NULL || !wp_result_shape(res, 1, 2) || !wp_result_number(res, 0, 0, &e->writes) ||
		!wp_result_number(res, 0, 1, &e->fsyncs))
	{
		ereport(LOG, (errmsg("walpressure could not read the standby's WAL statistics: %s",
							 res ? "it answered with something else" : err)));
		if (res)
			PQclear(res);
		else
			wp_standby_disconnect();
		return NULL;
	}
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
		char	   *sql = psprintf("SELECT pg_catalog.sum(wal_writes), pg_catalog.sum(wal_fsyncs),"
								   " coalesce(pg_catalog.sum(write_iops * seconds), 0),"
								   " coalesce(pg_catalog.sum(seconds) FILTER (WHERE write_iops IS NOT NULL), 0),"
								   " pg_catalog.sum(seconds)"
								   " FROM walpressure.sample_rows()"
								   " WHERE sample_time > pg_catalog.to_timestamp(%.6f)"
								   " AND sample_time <= pg_catalog.to_timestamp(%.6f)",
								   (double) b->at / USECS_PER_SEC, (double) e->at / USECS_PER_SEC);
		PGresult   *res = wp_query(wp_conn, sql, &err);
		double		writes,
					fsyncs,
					io,
					io_secs,
					secs;

		/* sums over no interval are NULL: the shape check refuses them too */
		if (res != NULL && wp_result_shape(res, 1, 5) &&
			wp_result_number(res, 0, 0, &writes) && wp_result_number(res, 0, 1, &fsyncs) &&
			wp_result_number(res, 0, 4, &secs) && secs > 0)
		{
			side->wal_writes_per_s = writes / secs;
			side->wal_fsyncs_per_s = fsyncs / secs;
			if (wp_result_number(res, 0, 2, &io) && wp_result_number(res, 0, 3, &io_secs) && io_secs > 0)
				side->write_iops = io / io_secs;
		}
		if (res)
			PQclear(res);
		else
			wp_standby_disconnect();
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

/*
 * Why `conninfo` is not a connection string libpq reads, NULL when it is.
 */
char *
wp_conninfo_problem(const char *conninfo)
{
	char	   *perr = NULL;
	PQconninfoOption *opts = PQconninfoParse(conninfo, &perr);

	if (opts != NULL)
	{
		PQconninfoFree(opts);
		return NULL;
	}
	return perr ? wp_pq_message(perr) : pstrdup("out of memory");
}

/*
 * Connect to `conninfo` (with the deadlines of every call here) and ask
 * whether it is in recovery.  False, with why in *err, when it could not
 * be reached; the connection is closed whatever happens, a cancel included.
 */
bool
wp_standby_reached(const char *conninfo, bool *in_recovery, char **err)
{
	PGconn	   *volatile conn = NULL;
	PGresult   *res;

	*in_recovery = false;
	*err = NULL;
	PG_TRY();
	{
		conn = wp_connect(conninfo, err);
		if (conn != NULL)
		{
			res = wp_query(conn, "SELECT pg_catalog.pg_is_in_recovery()", err);
			if (res != NULL && !wp_result_shape(res, 1, 1))
				*err = "it did not answer pg_is_in_recovery() with one value";
			else if (res != NULL)
				*in_recovery = strcmp(PQgetvalue(res, 0, 0), "t") == 0;
			if (res != NULL)
				PQclear(res);
		}
	}
	PG_FINALLY();
	{
		if (conn != NULL)
			PQfinish(conn);
	}
	PG_END_TRY();
	return conn != NULL;
}

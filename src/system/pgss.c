/*-------------------------------------------------------------------------
 *
 * pgss.c
 *		Per-statement figures of a step's window, from pg_stat_statements:
 *		each of the load's statements' calls, mean and stddev time, rows
 *		and WAL bytes between the window's start and its end.
 *
 * pg_stat_statements keeps cumulative counters: calls, the total time and
 * the stddev over all calls.  Two snapshots give the window's: its calls
 * and total time are differences, and its variance comes from the sums of
 * squares, which the cumulative stddev and mean give back (pg_stat_statements
 * keeps the population variance).  Only the load's statements count: the
 * load's role in this database, top level.  A statement whose entry was
 * reset or evicted in the window has no figures (its counters went back).
 *
 * The figures need pg_stat_statements loaded (shared_preload_libraries)
 * and installed in the sweep's database; without it a step records none.
 * The coordinator's own SQL is not counted: its session does not track.
 *
 * IDENTIFICATION
 *	  src/system/pgss.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/xact.h"
#include "catalog/pg_type.h"
#include "commands/dbcommands.h"
#include "executor/spi.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/resowner.h"
#include "utils/snapmgr.h"

#include "system/pgss.h"

/* longest statement text kept, in bytes */
#define WP_STMT_TEXT_MAX 1024

typedef struct WpStmtCounters
{
	int64		queryid;
	int64		calls;
	double		total_ms;
	double		sumsq;			/* the sum of squares of the calls' times */
	int64		rows;
	int64		wal_bytes;
	char	   *query;
} WpStmtCounters;

struct WpStmtSnap
{
	int			n;
	WpStmtCounters *c;			/* sorted by queryid */
};

/* pg_stat_statements' schema, quoted; NULL until looked up */
static char *wp_pgss_schema = NULL;
/* no figures in this session: pg_stat_statements is not there */
static bool wp_pgss_off = false;

/*
 * At the coordinator's start: is pg_stat_statements loaded?  If so, the
 * coordinator's own statements are not tracked.
 */
void
wp_statements_begin(void)
{
	if (GetConfigOption("pg_stat_statements.track", true, false) == NULL)
	{
		wp_pgss_off = true;
		return;
	}
	SetConfigOption("pg_stat_statements.track", "none", PGC_SUSET, PGC_S_SESSION);
}

static int
wp_stmt_cmp(const void *a, const void *b)
{
	int64		x = ((const WpStmtCounters *) a)->queryid;
	int64		y = ((const WpStmtCounters *) b)->queryid;

	return x < y ? -1 : x > y ? 1 : 0;
}

/* Read the load's statements' counters (SPI connected); NULL: none. */
static WpStmtSnap *
wp_statements_read(Oid roleid, bool with_text, MemoryContext cxt)
{
	WpStmtSnap *snap;
	char	   *sql;
	bool		isnull;

	if (wp_pgss_schema == NULL)
	{
		if (SPI_execute("SELECT pg_catalog.quote_ident(n.nspname) "
						"FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n "
						"ON n.oid OPERATOR(pg_catalog.=) e.extnamespace "
						"WHERE e.extname OPERATOR(pg_catalog.=) 'pg_stat_statements'",
						true, 1) != SPI_OK_SELECT)
			elog(ERROR, "could not look up pg_stat_statements");
		if (SPI_processed != 1)
		{
			ereport(LOG,
					(errmsg("walpressure records no per-statement figures: pg_stat_statements is loaded but not installed in database \"%s\"",
							get_database_name(MyDatabaseId))));
			wp_pgss_off = true;
			return NULL;
		}
		wp_pgss_schema = MemoryContextStrdup(TopMemoryContext,
											 SPI_getvalue(SPI_tuptable->vals[0],
														  SPI_tuptable->tupdesc, 1));
	}
	sql = psprintf("SELECT queryid, calls, total_exec_time, stddev_exec_time, rows, "
				   "wal_bytes::pg_catalog.float8, query FROM %s.pg_stat_statements($1) "
				   "WHERE userid OPERATOR(pg_catalog.=) $2 AND dbid OPERATOR(pg_catalog.=) $3 "
				   "AND toplevel AND queryid IS NOT NULL AND calls OPERATOR(pg_catalog.>) 0",
				   wp_pgss_schema);
	if (SPI_execute_with_args(sql, 3, (Oid[]) {BOOLOID, OIDOID, OIDOID},
							  (Datum[]) {BoolGetDatum(with_text), ObjectIdGetDatum(roleid),
							  ObjectIdGetDatum(MyDatabaseId)},
							  NULL, true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read pg_stat_statements");

	snap = MemoryContextAlloc(cxt, sizeof(WpStmtSnap));
	snap->n = (int) SPI_processed;
	snap->c = MemoryContextAllocZero(cxt, sizeof(WpStmtCounters) * Max(snap->n, 1));
	for (int i = 0; i < snap->n; i++)
	{
		HeapTuple	tup = SPI_tuptable->vals[i];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		WpStmtCounters *c = &snap->c[i];
		double		sd;
		Datum		q;

		c->queryid = DatumGetInt64(SPI_getbinval(tup, desc, 1, &isnull));
		c->calls = DatumGetInt64(SPI_getbinval(tup, desc, 2, &isnull));
		c->total_ms = DatumGetFloat8(SPI_getbinval(tup, desc, 3, &isnull));
		sd = DatumGetFloat8(SPI_getbinval(tup, desc, 4, &isnull));
		/* n sd^2 is the sum of squared deviations; add back n mean^2 */
		c->sumsq = c->calls * sd * sd + c->total_ms * c->total_ms / c->calls;
		c->rows = DatumGetInt64(SPI_getbinval(tup, desc, 5, &isnull));
		c->wal_bytes = (int64) DatumGetFloat8(SPI_getbinval(tup, desc, 6, &isnull));
		q = SPI_getbinval(tup, desc, 7, &isnull);
		if (!isnull)
		{
			char	   *s = TextDatumGetCString(q);
			int			len = pg_mbcliplen(s, strlen(s), WP_STMT_TEXT_MAX);

			c->query = MemoryContextAlloc(cxt, len + 1);
			memcpy(c->query, s, len);
			c->query[len] = '\0';
		}
	}
	qsort(snap->c, snap->n, sizeof(WpStmtCounters), wp_stmt_cmp);
	return snap;
}

/*
 * The cumulative counters of the statements role `roleid` ran at top level
 * in this database, with their text or without; allocated in the current
 * memory context.  NULL when pg_stat_statements is not there, or could not
 * be read (logged once; the sweep goes on without these figures).
 */
WpStmtSnap *
wp_statements_snap(Oid roleid, bool with_text)
{
	MemoryContext cxt = CurrentMemoryContext;
	ResourceOwner owner = CurrentResourceOwner;
	WpStmtSnap *volatile snap = NULL;

	if (wp_pgss_off)
		return NULL;

	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(cxt);
	PG_TRY();
	{
		int			nest = NewGUCNestLevel();

		(void) set_config_option("search_path", "pg_catalog, pg_temp", PGC_USERSET,
								 PGC_S_SESSION, GUC_ACTION_SAVE, true, 0, false);
		SPI_connect();
		PushActiveSnapshot(GetTransactionSnapshot());
		snap = wp_statements_read(roleid, with_text, cxt);
		PopActiveSnapshot();
		SPI_finish();
		AtEOXact_GUC(false, nest);
		ReleaseCurrentSubTransaction();
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(cxt);
		edata = CopyErrorData();
		FlushErrorState();
		RollbackAndReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(cxt);
		/* a cancel or a shutdown goes on, from the outer transaction */
		if (edata->sqlerrcode == ERRCODE_QUERY_CANCELED ||
			edata->sqlerrcode == ERRCODE_ADMIN_SHUTDOWN)
			ReThrowError(edata);
		ereport(LOG,
				(errmsg("walpressure records no per-statement figures for this sweep: %s",
						edata->message)));
		wp_pgss_off = true;
		snap = NULL;
	}
	PG_END_TRY();
	CommitTransactionCommand();
	MemoryContextSwitchTo(cxt);
	CurrentResourceOwner = owner;
	return snap;
}

static int
wp_fig_cmp(const void *a, const void *b)
{
	double		x = ((const WpStmtFig *) a)->total_ms;
	double		y = ((const WpStmtFig *) b)->total_ms;

	return x > y ? -1 : x < y ? 1 : 0;
}

/*
 * The statements' figures between snapshots s0 and s1, the most time
 * first, at most `max` into `out`; returns how many.
 */
int
wp_statements_window(const WpStmtSnap *s0, const WpStmtSnap *s1, WpStmtFig *out, int max)
{
	WpStmtFig  *all;
	int			n = 0;

	if (s0 == NULL || s1 == NULL || s1->n == 0)
		return 0;
	all = palloc(sizeof(WpStmtFig) * s1->n);
	for (int i = 0; i < s1->n; i++)
	{
		const WpStmtCounters *c1 = &s1->c[i];
		const WpStmtCounters *c0 = bsearch(c1, s0->c, s0->n, sizeof(WpStmtCounters), wp_stmt_cmp);
		WpStmtCounters zero = {0};
		WpStmtFig  *f = &all[n];
		double		var;

		if (c0 == NULL)
			c0 = &zero;			/* first run in the window */
		/* reset or evicted and back in the window: its counters are void */
		if (c1->calls <= c0->calls || c1->total_ms < c0->total_ms ||
			c1->rows < c0->rows || c1->wal_bytes < c0->wal_bytes)
			continue;
		f->queryid = c1->queryid;
		f->query = c1->query ? c1->query : "";
		f->calls = c1->calls - c0->calls;
		f->total_ms = c1->total_ms - c0->total_ms;
		f->mean_ms = f->total_ms / f->calls;
		var = (c1->sumsq - c0->sumsq) / f->calls - f->mean_ms * f->mean_ms;
		f->stddev_ms = var > 0 ? sqrt(var) : 0;
		f->rows = c1->rows - c0->rows;
		f->wal_bytes = c1->wal_bytes - c0->wal_bytes;
		n++;
	}
	qsort(all, n, sizeof(WpStmtFig), wp_fig_cmp);
	n = Min(n, max);
	memcpy(out, all, sizeof(WpStmtFig) * n);
	pfree(all);
	return n;
}

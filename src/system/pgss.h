/*-------------------------------------------------------------------------
 *
 * pgss.h
 *		Per-statement figures of a step's window from pg_stat_statements
 *		(pgss.c).
 *
 * IDENTIFICATION
 *	  src/system/pgss.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_STATEMENTS_H
#define WALPRESSURE_STATEMENTS_H

/* the statements kept per step: the most time over the window first */
#define WP_STMT_TOP 10

/* One statement's figures over a step's window. */
typedef struct WpStmtFig
{
	int64		queryid;
	char	   *query;			/* pg_stat_statements' normalized text */
	int64		calls;
	double		total_ms;
	double		mean_ms;
	double		stddev_ms;		/* over the window's calls, as pg_stat_statements' */
	int64		rows;
	int64		wal_bytes;
} WpStmtFig;

/* The cumulative counters of the load's statements at one moment. */
typedef struct WpStmtSnap WpStmtSnap;

extern void wp_statements_begin(void);
extern WpStmtSnap *wp_statements_snap(Oid roleid, bool with_text);
extern int	wp_statements_window(const WpStmtSnap *s0, const WpStmtSnap *s1,
								 WpStmtFig *out, int max);

#endif							/* WALPRESSURE_STATEMENTS_H */

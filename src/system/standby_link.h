/*-------------------------------------------------------------------------
 *
 * standby_link.h
 *		The standby's own side over libpq, from standby_conninfo
 *		(standby_link.c).
 *
 * IDENTIFICATION
 *	  src/system/standby_link.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_STANDBY_LINK_H
#define WALPRESSURE_STANDBY_LINK_H

/* The standby's side over a window, from standby_conninfo; < 0: unknown. */
typedef struct WpStandbySide
{
	double		wal_mb_per_s;	/* received and flushed */
	double		wal_writes_per_s;
	double		wal_fsyncs_per_s;
	double		write_iops;
	const char *source;			/* "walpressure", "pg_stat_wal", "pg_stat_io" */
} WpStandbySide;

extern char *wp_conninfo_problem(const char *conninfo);
extern bool wp_standby_reached(const char *conninfo, bool *in_recovery, char **err);
extern void *wp_standby_window_begin(const char *conninfo);
extern void wp_standby_window_end(void *begin, double seconds, WpStandbySide *side);
extern void wp_standby_disconnect(void);
extern char *wp_conninfo_redacted(const char *conninfo);

#endif							/* WALPRESSURE_STANDBY_LINK_H */

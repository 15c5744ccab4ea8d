/*-------------------------------------------------------------------------
 *
 * fleet_rows.h
 *		The fleet's rows, written as the extension's owner after the
 *		caller's authority is checked (fleet_rows.c).
 *
 * IDENTIFICATION
 *	  src/api/fleet_rows.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WP_FLEET_ROWS_H
#define WP_FLEET_ROWS_H

/* Which entry point of this backend runs now (the gates write within it). */
typedef enum WpFleetScope
{
	WP_FLEET_NONE,
	WP_FLEET_RUN,				/* fleet_run(), for one run */
	WP_FLEET_COLLECT			/* fleet_collect() */
} WpFleetScope;

extern void wp_fleet_scope_enter(WpFleetScope kind, int64 run_id);
extern void wp_fleet_scope_leave(void);
extern int64 wp_fleet_next_run_id(void);
extern void wp_fleet_insert_run(int64 run_id, Datum sweep, Datum servers, Datum lost_after);
extern int64 wp_fleet_ask_cancel(int64 run_id, Datum servers, bool all);
extern Datum wp_fleet_record_server(Datum server, Datum who, bool asked);

#endif							/* WP_FLEET_ROWS_H */

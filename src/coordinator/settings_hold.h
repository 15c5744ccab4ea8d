/*-------------------------------------------------------------------------
 *
 * settings_hold.h
 *		A sweep's hold on the server-wide settings (settings_hold.c).
 *
 * IDENTIFICATION
 *	  src/coordinator/settings_hold.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_SETTINGS_HOLD_H
#define WALPRESSURE_SETTINGS_HOLD_H

#include "nodes/pg_list.h"

#include "restore/record.h"
#include "sweep/request.h"

/* The server-wide settings while the sweep holds them. */
typedef struct WpServerHold
{
	List	   *names;			/* every one the sweep changes */
	char	   *originals;		/* their values before, name=value lines */
	List	   *swept;			/* those the values change (not the fixed ones) */
	List	   *swept_originals;	/* ... and their values before */
	bool		active;
	const char *restored;		/* how they were put back */
} WpServerHold;

extern void wp_server_begin(const WpSweepRequest *req, WpCrashRecord *record, WpServerHold *hold);
extern void wp_server_end(WpCrashRecord *record, WpServerHold *hold, bool check);
extern void wp_server_settings_apply(WpCrashRecord *record, List *names, List *values);

#endif							/* WALPRESSURE_SETTINGS_HOLD_H */

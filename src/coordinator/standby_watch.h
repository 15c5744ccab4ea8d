/*-------------------------------------------------------------------------
 *
 * standby_watch.h
 *		A step's watch over the synchronous standbys its commits wait for.
 *
 * IDENTIFICATION
 *	  src/coordinator/standby_watch.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_STANDBY_WATCH_H
#define WALPRESSURE_STANDBY_WATCH_H

#include "utils/timestamp.h"

typedef struct WpStandbyWatch
{
	bool		watching;		/* from the warm-up on */
	bool		needed;			/* the step's synchronous_commit waits */
	Oid			role;			/* whose backends' waits count */
	bool		gone;			/* the standbys were missing too long */
	char	   *why;			/* what was missing, for the step's row */
	TimestampTz unready_since;
} WpStandbyWatch;

extern void wp_standby_watch_reset(WpStandbyWatch *w, Oid role);
extern void wp_standby_watch_tick(WpStandbyWatch *w);
extern bool wp_standby_watch_there(WpStandbyWatch *w, int step, bool skip_on_loss);

#endif							/* WALPRESSURE_STANDBY_WATCH_H */

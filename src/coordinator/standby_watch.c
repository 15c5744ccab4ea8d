/*-------------------------------------------------------------------------
 *
 * standby_watch.c
 *		A step's watch over the synchronous standbys its commits wait for.
 *
 * The synchronous standbys are watched at every wait of a step: when those
 * synchronous_standby_names asks for are not there for WP_STANDBY_GRACE_MS
 * and the step's commits wait for them (its synchronous_commit says so, or
 * its backends are found waiting: a script may SET it), the step ends
 * (gone, and why).
 *
 * IDENTIFICATION
 *	  src/coordinator/standby_watch.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "pgstat.h"
#include "storage/latch.h"

#include "job/slot.h"
#include "system/walsenders.h"
#include "coordinator/standby_watch.h"

#define WP_STANDBY_GRACE_MS		1000
#define WP_STANDBY_START_WAIT_MS 5000

/* A new step's watch: not watching yet, nothing lost. */
void
wp_standby_watch_reset(WpStandbyWatch *w, Oid role)
{
	memset(w, 0, sizeof(*w));
	w->role = role;
}

/* One look at the standbys, at a wait of the step. */
void
wp_standby_watch_tick(WpStandbyWatch *w)
{
	char	   *why = NULL;

	if (!w->watching || w->gone)
		return;
	if (wp_syncrep_ready_now(&why) ||
		(!w->needed && wp_load_syncrep_waiting(w->role) == 0))
	{
		w->unready_since = 0;
		return;
	}
	if (w->unready_since == 0)
		w->unready_since = GetCurrentTimestamp();
	else if (TimestampDifferenceExceeds(w->unready_since, GetCurrentTimestamp(),
										WP_STANDBY_GRACE_MS))
	{
		w->gone = true;
		w->why = why;
	}
}

/*
 * Before a step whose commits wait for a standby: true when it is there
 * (within WP_STANDBY_START_WAIT_MS), and the step needs it from then on.
 * Else, with on_standby_loss => 'stop' an ERROR, with 'skip' false (why
 * in w->why).
 */
bool
wp_standby_watch_there(WpStandbyWatch *w, int step, bool skip_on_loss)
{
	TimestampTz deadline = TimestampTzPlusMilliseconds(GetCurrentTimestamp(),
													   WP_STANDBY_START_WAIT_MS);
	char	   *why = NULL;

	while (!wp_syncrep_ready_now(&why))
	{
		if (wp_job_cancelled())
		{
			w->why = "the sweep was cancelled while it waited for its standby";
			return false;
		}
		if (GetCurrentTimestamp() >= deadline)
		{
			w->why = why;
			if (!skip_on_loss)
				ereport(ERROR,
						(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
						 errmsg("step %d needs a synchronous standby, and none is there", step),
						 errdetail("%s.", why),
						 errhint("Start the standby again, or run the sweep with on_standby_loss => 'skip' to go on without the steps that need one.")));
			return false;
		}
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 100, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
	w->needed = true;
	return true;
}

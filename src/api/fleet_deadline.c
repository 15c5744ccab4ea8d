/*-------------------------------------------------------------------------
 *
 * fleet_deadline.c
 *		_fleet_deadline(seconds): a deadline for one dblink_connect of the
 *		fleet, which the connection itself does not keep on 16 and later.
 *
 * On 15 dblink connects with PQconnectdb, which keeps the server's
 * connect_timeout (and no cancel reaches it).  From 16 on it connects
 * through libpqsrv_connect, which waits for the socket with no time limit
 * and checks for interrupts: connect_timeout is not kept there, and a
 * server that accepts and says nothing holds the call until a cancel.  So
 * _fleet_connect arms this deadline before the connect and disarms it
 * after, a second past connect_timeout (on 15 libpq keeps that and says
 * so first): when it passes, the backend cancels its own statement (SIGINT to
 * itself, as statement_timeout does), and _fleet_connect, seeing that the
 * cancel was the deadline's, raises a connection failure instead.
 *
 * _fleet_deadline(n > 0) arms it for n seconds; _fleet_deadline(0) disarms
 * it and says whether it had passed (then the cancel it sent is withdrawn,
 * if no CHECK_FOR_INTERRUPTS took it yet).
 *
 * IDENTIFICATION
 *	  src/api/fleet_deadline.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <signal.h>
#include <unistd.h>

#include "fmgr.h"
#include "miscadmin.h"
#include "utils/timeout.h"

PG_FUNCTION_INFO_V1(wp_fleet_deadline);

static TimeoutId wp_deadline_id = MAX_TIMEOUTS;
static volatile sig_atomic_t wp_deadline_passed = false;

/* The deadline passed: cancel this backend's statement, as statement_timeout does. */
static void
wp_deadline_handler(void)
{
	wp_deadline_passed = true;
	kill(MyProcPid, SIGINT);
}

Datum
wp_fleet_deadline(PG_FUNCTION_ARGS)
{
	int32		seconds = PG_GETARG_INT32(0);
	bool		passed;

	if (wp_deadline_id == MAX_TIMEOUTS)
		wp_deadline_id = RegisterTimeout(USER_TIMEOUT, wp_deadline_handler);
	if (seconds > 0)
	{
		wp_deadline_passed = false;
		enable_timeout_after(wp_deadline_id, Min(seconds, 3600) * 1000);
		PG_RETURN_BOOL(false);
	}
	disable_timeout(wp_deadline_id, false);
	passed = wp_deadline_passed;
	wp_deadline_passed = false;
	if (passed)
		QueryCancelPending = false;		/* the cancel was ours */
	PG_RETURN_BOOL(passed);
}

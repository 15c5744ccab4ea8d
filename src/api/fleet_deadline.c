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
 * A cancel is not always enough: once connected, dblink sets the
 * connection's client_encoding with PQsetClientEncoding, a PQexec that
 * waits for the answer with no deadline and retries its wait when a signal
 * interrupts it (on every major).  A member that reports another
 * client_encoding and never answers that SET would hold the backend past
 * every cancel and pg_terminate_backend.  So when the deadline passes it
 * also shuts down the sockets the connect opened: those of this process
 * that were not open when it was armed (the client's own connection and
 * any connection made before are left alone).  libpq's wait then ends, the
 * connect returns, and the cancel is taken.  shutdown(2) and fstat(2) are
 * async-signal-safe; the sockets open at arming are noted then.
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

#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fmgr.h"
#include "miscadmin.h"
#include "storage/fd.h"
#include "utils/memutils.h"
#include "utils/timeout.h"

#include "api/fleet_server.h"

PG_FUNCTION_INFO_V1(wp_fleet_deadline);

static TimeoutId wp_deadline_id = MAX_TIMEOUTS;
static volatile sig_atomic_t wp_deadline_passed = false;

/*
 * The file descriptors the handler looks at, 0 to wp_fd_span - 1 (those open
 * at arming and 64 more: a new socket takes the lowest free number), and
 * which of them were sockets at arming.
 */
#define WP_FD_MORE	64
static int	wp_fd_span = 0;
static bool *wp_socket_before = NULL;

static bool
wp_is_socket(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 && S_ISSOCK(st.st_mode);
}

/*
 * The highest file descriptor open now: from /proc/self/fd (its own
 * descriptor among them, closed after), else by asking each number up to
 * the limit (65536 calls: only where /proc is not mounted).
 */
static int
wp_highest_fd(void)
{
	int			highest = -1;
	DIR		   *dir = AllocateDir("/proc/self/fd");

	if (dir != NULL)
	{
		struct dirent *de;

		while ((de = ReadDirExtended(dir, "/proc/self/fd", DEBUG1)) != NULL)
		{
			char	   *end;
			long		fd = strtol(de->d_name, &end, 10);

			if (end != de->d_name && *end == '\0' && fd > highest && fd < (1 << 16))
				highest = (int) fd;
		}
		FreeDir(dir);
		return highest;
	}
	for (int fd = 0, limit = (int) Min(sysconf(_SC_OPEN_MAX), 1 << 16); fd < limit; fd++)
	{
		if (fcntl(fd, F_GETFD) != -1)
			highest = fd;
	}
	return highest;
}

/* Note the sockets open now, before the connect. */
static void
wp_note_sockets(void)
{
	int			highest = wp_highest_fd();
	bool	   *fresh = MemoryContextAllocZero(TopMemoryContext, highest + 1 + WP_FD_MORE);

	/* the new list first: an allocation that fails leaves the old one whole */
	if (wp_socket_before != NULL)
		pfree(wp_socket_before);
	wp_socket_before = fresh;
	wp_fd_span = highest + 1 + WP_FD_MORE;
	for (int fd = 0; fd <= highest; fd++)
		wp_socket_before[fd] = wp_is_socket(fd);
}

/*
 * The deadline passed: cancel this backend's statement, as
 * statement_timeout does, and shut down the sockets opened since it was
 * armed, so that a wait libpq retries after the signal ends too.
 */
static void
wp_deadline_handler(void)
{
	int			save_errno = errno;

	wp_deadline_passed = true;
	for (int fd = 0; fd < wp_fd_span && wp_socket_before != NULL; fd++)
	{
		if (!wp_socket_before[fd] && wp_is_socket(fd))
			(void) shutdown(fd, SHUT_RDWR);
	}
	kill(MyProcPid, SIGINT);
	errno = save_errno;
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
		/* a deadline still armed goes first: its handler reads the list */
		disable_timeout(wp_deadline_id, false);
		wp_deadline_passed = false;
		wp_note_sockets();
		enable_timeout_after(wp_deadline_id, Min(seconds, WP_FLEET_MAX_CONNECT_WAIT) * 1000);
		PG_RETURN_BOOL(false);
	}
	disable_timeout(wp_deadline_id, false);
	passed = wp_deadline_passed;
	wp_deadline_passed = false;
	if (passed)
		QueryCancelPending = false;		/* the cancel was ours */
	PG_RETURN_BOOL(passed);
}

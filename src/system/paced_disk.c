/*-------------------------------------------------------------------------
 *
 * paced_disk.c
 *		The paced disk, from the extension's side: the shared state the
 *		preloaded walpressure_pacer.so reads (src/pacer/pacer_state.h), made
 *		in shared memory and handed to the shim in the postmaster, so that
 *		every server process inherits it; whether the shim is there; its
 *		settings as a cap (write IOPS, the least time of a flush, the IOs
 *		lent after an idle time), put on the filesystem that holds pg_wal;
 *		and the IOs it has charged.
 *
 * The state lives in shared memory only: a crash-restart makes it anew,
 * off, so that nothing is left paced after a crash (the cgroup throttle
 * needs the crash record for that; this needs nothing).  Settings are
 * written under a spinlock of this block (the shim's header asks that two
 * configurations never run at once); the shim reads each field atomically.
 *
 * IDENTIFICATION
 *	  src/system/paced_disk.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <dlfcn.h>
#include <sys/stat.h>

#include "miscadmin.h"
#include "port/atomics.h"
#include "storage/shmem.h"
#include "storage/spin.h"

#include "pacer/pacer_state.h"
#include "system/paced_disk.h"

/* The block: a lock, whether the shim took the state, the state itself. */
typedef struct WpPacedBlock
{
	slock_t		mutex;
	bool		attached;		/* the postmaster's attach returned 1 */
	WpPacerState state;			/* moved up to a 64-byte line: see below */
} WpPacedBlock;

static WpPacedBlock *wp_paced = NULL;

/* The block, with room to put the state on a cache line of its own. */
Size
wp_paced_shmem_size(void)
{
	return sizeof(WpPacedBlock) + 64;
}

/* The state, at the first 64-byte line from its field in the block. */
static WpPacerState *
wp_paced_state(void)
{
	return (WpPacerState *) TYPEALIGN(64, (uintptr_t) &wp_paced->state);
}

/*
 * Make the block (new: an off state) and, in the postmaster, hand it to
 * the shim when the server was started with it: at start and after each
 * crash-restart, which makes shared memory anew.
 */
void
wp_paced_shmem_init(void *block, bool found)
{
	wp_paced = (WpPacedBlock *) TYPEALIGN(MAXIMUM_ALIGNOF, (uintptr_t) block);
	if (!found)
	{
		SpinLockInit(&wp_paced->mutex);
		wp_paced->attached = false;
		wp_pacer_init(wp_paced_state());
	}
	if (!IsUnderPostmaster)
	{
		WpPacerAttachFn attach = (WpPacerAttachFn) dlsym(RTLD_DEFAULT, WP_PACER_ATTACH_SYMBOL);

		wp_paced->attached = attach != NULL && attach(wp_paced_state()) == 1;
		if (attach != NULL && !wp_paced->attached)
			ereport(LOG,
					(errmsg("walpressure_pacer.so is preloaded but refused walpressure's state: a walpressure_pacer.so of another version"),
					 errhint("Start the server with the walpressure_pacer.so installed with this walpressure.")));
	}
}

/* Was the server started with walpressure_pacer.so, and did it take the state? */
bool
wp_paced_available(void)
{
	return wp_paced != NULL && wp_paced->attached;
}

/*
 * How to start the server with the shim, for a HINT: the library's path
 * in this installation and where Debian and pg_ctl take an environment.
 */
char *
wp_paced_hint(void)
{
	char		path[MAXPGPATH];

	get_pkglib_path(my_exec_path, path);
	return psprintf("Start the server with LD_PRELOAD=%s/walpressure_pacer.so in its environment "
					"(Debian: a line LD_PRELOAD = '%s/walpressure_pacer.so' in /etc/postgresql/%d/main/environment; "
					"pg_ctl: LD_PRELOAD=... pg_ctl start), then restart it.",
					path, path, PG_VERSION_NUM / 10000);
}

/* The st_dev of the filesystem that holds pg_wal (a symlink followed). */
static uint64
wp_paced_wal_dev(void)
{
	struct stat st;

	if (stat(psprintf("%s/pg_wal", DataDir), &st) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not stat \"%s/pg_wal\": %m", DataDir)));
	return (uint64) st.st_dev;
}

/*
 * Pace the filesystem that holds pg_wal at `iops` write IOs a second (0:
 * not at all), a flush taking at least floor_us on an idle disk, the
 * bucket lending `burst` IOs after an idle time.  The shim must be there
 * (callers check wp_paced_available first, to say how to add it).
 */
void
wp_paced_set(const WpPacedCap *cap)
{
	uint64		dev = cap->iops > 0 ? wp_paced_wal_dev() : 0;

	Assert(wp_paced_available());
	SpinLockAcquire(&wp_paced->mutex);
	wp_pacer_configure(wp_paced_state(), (uint64) Max(cap->iops, 0), WP_PACER_IOS_PER_FLUSH,
					   (uint64) (Max(cap->floor_us, 0) * 1000.0), (uint64) Max(cap->burst, 0), dev);
	SpinLockRelease(&wp_paced->mutex);
}

/* The cap in place: iops 0 when none (or no shim). */
void
wp_paced_get(WpPacedCap *cap)
{
	WpPacerState *st;

	memset(cap, 0, sizeof(*cap));
	if (!wp_paced_available())
		return;
	st = wp_paced_state();
	cap->iops = (int64) wp_pacer_get(&st->iops);
	cap->floor_us = wp_pacer_get(&st->floor_ns) / 1000.0;
	cap->burst = (int64) wp_pacer_get(&st->burst);
}

/*
 * The IOs the paced disk has charged since the server started (its own
 * count, not the device's): what a step's write IOPS are under it.  False
 * without the shim.
 */
bool
wp_paced_ios(uint64 *ios)
{
	if (!wp_paced_available())
		return false;
	*ios = wp_pacer_get(&wp_paced_state()->ios_charged);
	return true;
}

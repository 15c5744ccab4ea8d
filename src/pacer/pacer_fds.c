/*-------------------------------------------------------------------------
 *
 * pacer_fds.c
 *		The paced disk's fds: what each fd of this process is (a file or
 *		directory on pg_wal's filesystem, opened O_DSYNC or not, or
 *		anything else), remembered per generation of the settings, with
 *		the bytes written to it since its last flush.
 *
 * IDENTIFICATION
 *	  src/pacer/pacer_fds.c
 *
 *-------------------------------------------------------------------------
 */
#undef _FILE_OFFSET_BITS		/* pwrite must stay pwrite, not pwrite64 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <fcntl.h>
#include <string.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "pacer_state.h"
#include "pacer_internal.h"

static WpFd wp_fds[WP_FD_TABLE];

/*
 * What fd is, by fstat (and, for a paced file, fcntl for O_DSYNC): the
 * kind, and its inode in *ino.  An fd fstat cannot read is not paced.
 */
static WpFdKind
wp_classify(WpPacerState *st, int fd, uint64_t *ino)
{
	struct stat sb;
	int			flags;

	*ino = 0;
	if (fstat(fd, &sb) != 0)
		return WP_FD_OTHER;
	*ino = (uint64_t) sb.st_ino;
	if (!(S_ISREG(sb.st_mode) || S_ISDIR(sb.st_mode)) ||
		(uint64_t) sb.st_dev != wp_pacer_get(&st->dev))
		return WP_FD_OTHER;
	flags = fcntl(fd, F_GETFL);
	if (flags != -1 && (flags & O_DSYNC) != 0)
		return WP_FD_PACED_SYNC;
	return WP_FD_PACED;
}

/*
 * fd's entry, current for this generation: looked up in the table (an
 * entry of an older generation, or cleared by close, is classified again,
 * keeping its dirty count if the inode is the same), or for an fd beyond
 * the table, classified into *spare each time.  With verify, the inode is
 * checked even on a current entry (a flush, or a wait, is worth an fstat:
 * an fd closed behind our back, by fclose, may have been reused).
 */
WpFd *
wp_fd(WpPacerState *st, int fd, bool verify, WpFd *spare)
{
	uint64_t	gen = __atomic_load_n(&st->generation, __ATOMIC_ACQUIRE);
	WpFd	   *e;
	uint64_t	ino;
	WpFdKind	kind;

	if (fd < 0 || fd >= WP_FD_TABLE)
	{
		spare->kind = wp_classify(st, fd, &spare->ino);
		spare->dirty = 0;
		spare->gen = gen;
		return spare;
	}
	e = &wp_fds[fd];
	if (e->gen == gen && e->kind != WP_FD_UNKNOWN && !verify)
		return e;
	kind = wp_classify(st, fd, &ino);
	if (e->gen == 0 || ino != e->ino || kind == WP_FD_OTHER)
		e->dirty = 0;
	e->ino = ino;
	e->kind = kind;
	e->gen = gen;
	return e;
}


/* Forget every fd (a new state is attached: nothing seen before is trusted). */
void
wp_fds_clear(void)
{
	memset(wp_fds, 0, sizeof(wp_fds));
}

/* fd is closed: its entry, if any, goes with it. */
void
wp_fd_forget(int fd)
{
	if (fd >= 0 && fd < WP_FD_TABLE && wp_fds[fd].gen != 0)
	{
		wp_fds[fd].gen = 0;
		wp_fds[fd].dirty = 0;
	}
}

/*
 * The dirty bytes of every paced fd of generation gen (syncfs flushes them
 * all), each count cleared.
 */
uint64_t
wp_fds_take_dirty(uint64_t gen)
{
	uint64_t	dirty = 0;

	for (int i = 0; i < WP_FD_TABLE; i++)
	{
		if (wp_fds[i].gen == gen && wp_fds[i].kind >= WP_FD_PACED)
		{
			dirty += wp_fds[i].dirty;
			wp_fds[i].dirty = 0;
		}
	}
	return dirty;
}

/*-------------------------------------------------------------------------
 *
 * disk_probe.c
 *		walpressure.probe_fsync(): what one WAL flush costs on this disk, now,
 *		under the current cap.
 *
 * The same test as pg_test_fsync's fdatasync line: a 16MB file in pg_wal,
 * written once and synced, then one block written at its start and
 * fdatasync()ed, again and again, each operation timed.  It runs in the
 * calling backend, so under a cap set by set_iops_cap it is throttled like
 * the server's own WAL flushes.  The inverse of its latency is the commit
 * budget: the most commits per second a lone backend can make durable.
 *
 * IDENTIFICATION
 *	  src/system/disk_probe.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <math.h>
#include <unistd.h>

#include "fmgr.h"
#include "access/htup_details.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "portability/instr_time.h"
#include "storage/fd.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "system/disk_probe.h"


#define WP_PROBE_FILE_SIZE	(16 * 1024 * 1024)
#define WP_PROBE_PREFIX		"walpressure_fsync_probe."

/*
 * The probe files of processes that no longer exist (a backend killed in
 * the middle of probe_fsync, a crash): 16 MB each in pg_wal.  The sampler
 * calls this at its start, after every crash-restart; probe_fsync before
 * each probe.
 */
void
wp_fsync_probe_remove_stale(void)
{
	DIR		   *d = AllocateDir("pg_wal");
	struct dirent *e;

	if (d == NULL)
		return;
	while ((e = ReadDir(d, "pg_wal")) != NULL)
	{
		long		pid;
		char	   *end;

		if (strncmp(e->d_name, WP_PROBE_PREFIX, strlen(WP_PROBE_PREFIX)) != 0)
			continue;
		pid = strtol(e->d_name + strlen(WP_PROBE_PREFIX), &end, 10);
		if (*end != '\0' || pid <= 0 || (kill((pid_t) pid, 0) != 0 && errno == ESRCH))
		{
			char		path[MAXPGPATH];

			snprintf(path, sizeof(path), "pg_wal/%s", e->d_name);
			if (unlink(path) == 0)
				ereport(LOG,
						(errmsg("walpressure: removed \"%s\", left by a probe_fsync that did not finish", path)));
		}
	}
	FreeDir(d);
}

/*
 * Write the whole file once and sync it, so the loop rewrites allocated
 * blocks as WAL flushes do.
 */
static void
wp_probe_prepare(int fd, const char *path)
{
	char	   *zeros = palloc0(1024 * 1024);

	for (int i = 0; i < WP_PROBE_FILE_SIZE / (1024 * 1024); i++)
		if (write(fd, zeros, 1024 * 1024) != 1024 * 1024)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not write file \"%s\": %m", path)));
	if (pg_fsync(fd) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not fsync file \"%s\": %m", path)));
	pfree(zeros);
}

/*
 * Write `block_size` bytes at the start of a 16 MB file in pg_wal and
 * fdatasync it, again and again for `duration_us`, as pg_test_fsync's
 * fdatasync line does; the file goes whatever happens.
 */
void
wp_disk_probe_run(int64 duration_us, int block_size, WpDiskProbe *out)
{
	char	   *path;
	char	   *buf;
	int			fd;
	instr_time	start;
	instr_time	now;

	memset(out, 0, sizeof(WpDiskProbe));
	wp_fsync_probe_remove_stale();
	path = psprintf("%s/pg_wal/" WP_PROBE_PREFIX "%d", DataDir, MyProcPid);
	fd = OpenTransientFile(path, O_RDWR | O_CREAT | O_TRUNC | PG_BINARY);
	if (fd < 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not create file \"%s\": %m", path)));

	PG_TRY();
	{
		wp_probe_prepare(fd, path);
		buf = palloc(block_size);
		memset(buf, 0x5a, block_size);

		INSTR_TIME_SET_CURRENT(start);
		for (;;)
		{
			instr_time	op_start;
			instr_time	op;
			uint64		us;

			CHECK_FOR_INTERRUPTS();
			INSTR_TIME_SET_CURRENT(op_start);
			if (pg_pwrite(fd, buf, block_size, 0) != block_size)
				ereport(ERROR,
						(errcode_for_file_access(),
						 errmsg("could not write file \"%s\": %m", path)));
			if (fdatasync(fd) != 0)
				ereport(ERROR,
						(errcode_for_file_access(),
						 errmsg("could not fdatasync file \"%s\": %m", path)));
			INSTR_TIME_SET_CURRENT(now);
			op = now;
			INSTR_TIME_SUBTRACT(op, op_start);
			us = INSTR_TIME_GET_MICROSEC(op);
			out->hist.bucket[wp_hist_bucket(us)]++;
			out->total_us += us;
			out->ops++;

			INSTR_TIME_SUBTRACT(now, start);
			if ((int64) INSTR_TIME_GET_MICROSEC(now) >= duration_us)
				break;
		}
	}
	PG_FINALLY();
	{
		CloseTransientFile(fd);
		unlink(path);
	}
	PG_END_TRY();
	out->seconds = INSTR_TIME_GET_DOUBLE(now);
}

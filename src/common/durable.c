/*-------------------------------------------------------------------------
 *
 * durable.c
 *		Whole files of the data directory: read at once, and written
 *		durably and atomically (a temporary file fsynced, then
 *		durable_rename()d over the old one), even by a process that runs
 *		with fsync = off (the caller says so with enableFsync).
 *
 * IDENTIFICATION
 *	  src/common/durable.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <fcntl.h>
#include <unistd.h>

#include "lib/stringinfo.h"
#include "storage/fd.h"

#include "common/durable.h"

/*
 * The whole of a file, or NULL if it does not exist.
 */
char *
wp_read_whole(const char *path, Size *len)
{
	FILE	   *f = AllocateFile(path, PG_BINARY_R);
	StringInfoData buf;
	char		chunk[4096];
	size_t		n;

	if (f == NULL)
	{
		if (errno == ENOENT)
			return NULL;
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not open file \"%s\": %m", path)));
	}
	initStringInfo(&buf);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		appendBinaryStringInfo(&buf, chunk, n);
	if (ferror(f))
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not read file \"%s\": %m", path)));
	FreeFile(f);
	*len = buf.len;
	return buf.data;
}

/*
 * Write `data` to `path` durably and atomically, through `tmp`.
 */
void
wp_write_whole(const char *path, const char *tmp, const char *data, Size len)
{
	int			fd = OpenTransientFile(tmp, O_CREAT | O_WRONLY | O_TRUNC | PG_BINARY);

	if (fd < 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not create file \"%s\": %m", tmp)));
	errno = 0;
	if (len > 0 && write(fd, data, len) != (ssize_t) len)
	{
		if (errno == 0)
			errno = ENOSPC;
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not write file \"%s\": %m", tmp)));
	}
	if (pg_fsync(fd) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not fsync file \"%s\": %m", tmp)));
	if (CloseTransientFile(fd) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not close file \"%s\": %m", tmp)));
	(void) durable_rename(tmp, path, ERROR);
}


/*-------------------------------------------------------------------------
 *
 * record.c
 *		The one crash record: what a running sweep must put back if the
 *		server stops or crashes under it, in one file of the data
 *		directory, walpressure.sweep, written whole and atomically by one
 *		function (wp_record_write: a temporary file, fsynced, then
 *		durable_rename()d) and read by one (wp_record_read).
 *
 * The record names the sweep and its database (to close its row), and,
 * once the sweep holds them: the IOPS limits its cap replaced and the
 * cgroup it capped; the server-wide settings it manages, with
 * postgresql.auto.conf as it was before the first change (or that there was
 * none); and whether the data directory needs a sync because a step ran
 * with fsync = off.  The coordinator writes it as it takes each of those
 * and removes it when everything is back; the restore worker and the
 * postmaster's start-up restore (restore.c) read it.
 *
 * The file is text, one item a line, and the copy of postgresql.auto.conf
 * as its length in bytes followed by the bytes, then a closing "end" line:
 *
 *		<sweep id> <database oid>
 *		cap <major>:<minor> <write iops> <read iops> <cgroup>
 *		settings present|absent
 *		setting <name>
 *		needs_sync
 *		autoconf <length>
 *		<length bytes>
 *		end
 *
 * Its first lines are those of the state file of releases before 0.7.0,
 * which had the rest in walpressure.settings, walpressure.auto.conf.orig and
 * walpressure.needs_sync: a server that crashed under such a release is put
 * back by this one (wp_record_read reads those files too, and
 * wp_record_remove removes them).
 *
 * IDENTIFICATION
 *	  src/restore/record.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <unistd.h>

#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "storage/fd.h"
#include "utils/guc.h"

#include "common/durable.h"
#include "restore/record.h"

#define WP_RECORD_FILE			"walpressure.sweep"
#define WP_RECORD_TMP			"walpressure.sweep.tmp"
/* the files of releases before 0.7.0 */
#define WP_LEGACY_SETTINGS		"walpressure.settings"
#define WP_LEGACY_AUTOCONF		"walpressure.auto.conf.orig"
#define WP_LEGACY_NEEDS_SYNC	"walpressure.needs_sync"

/*
 * The settings part of a release before 0.7.0: walpressure.settings (the
 * sweep, whether postgresql.auto.conf existed, the managed settings), the
 * copy of the file, and the sync marker.
 */
static void
wp_record_read_legacy(WpCrashRecord *rec)
{
	Size		len;
	char	   *text = wp_read_whole(WP_LEGACY_SETTINGS, &len);
	char	   *save = NULL;
	bool		have_sweep = false;
	bool		have_autoconf = false;

	if (access(WP_LEGACY_NEEDS_SYNC, F_OK) == 0)
		rec->needs_sync = true;
	if (text == NULL)
	{
		/* copied, but nothing changed yet: nothing to put back */
		return;
	}
	rec->legacy_file = WP_LEGACY_SETTINGS;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
	{
		long long	id;

		if (sscanf(line, "sweep %lld", &id) == 1)
		{
			if (rec->sweep_id == 0)
				rec->sweep_id = id;
			have_sweep = true;
		}
		else if (strcmp(line, "autoconf present") == 0 || strcmp(line, "autoconf absent") == 0)
		{
			rec->had_autoconf = strcmp(line, "autoconf present") == 0;
			have_autoconf = true;
		}
		else if (strncmp(line, "setting ", 8) == 0)
			rec->managed = lappend(rec->managed, pstrdup(line + 8));
	}
	rec->has_settings = true;
	rec->autoconf = wp_read_whole(WP_LEGACY_AUTOCONF, &rec->autoconf_len);
	if (!have_sweep || !have_autoconf || (rec->had_autoconf && rec->autoconf == NULL))
		rec->settings_unreadable = true;
}

/*
 * Parse the record's text; false when it is not one (damaged).
 */
static bool
wp_record_parse(const char *text, Size len, WpCrashRecord *rec)
{
	const char *p = text;
	const char *end = text + len;
	bool		closed = false;
	long long	id;
	unsigned int db;

	if (sscanf(p, "%lld %u", &id, &db) != 2 || id <= 0)
		return false;
	rec->sweep_id = id;
	rec->dboid = db;
	while (p < end && (p = memchr(p, '\n', end - p)) != NULL && ++p < end)
	{
		long long	w,
					r;
		size_t		n;
		int			fields;

		if (strncmp(p, "cap ", 4) == 0)
		{
			char		cgroup[256] = "";

			fields = sscanf(p, "cap %u:%u %lld %lld %255[^\n]", &rec->cap.dev.major,
							&rec->cap.dev.minor, &w, &r, cgroup);
			if (fields < 4)
				return false;
			rec->has_cap = true;
			rec->cap.prev_write_iops = w;
			rec->cap.prev_read_iops = r;
			/* a state file of before 0.6.0 names no cgroup: the setting's */
			strlcpy(rec->cap.cgroup, fields == 5 ? cgroup : wp_cgroup_name, sizeof(rec->cap.cgroup));
		}
		else if (strncmp(p, "settings present\n", 17) == 0 || strncmp(p, "settings absent\n", 16) == 0)
		{
			rec->has_settings = true;
			rec->had_autoconf = p[9] == 'p';
		}
		else if (strncmp(p, "setting ", 8) == 0)
		{
			const char *nl = memchr(p, '\n', end - p);

			if (nl == NULL)
				return false;
			rec->managed = lappend(rec->managed, pnstrdup(p + 8, nl - p - 8));
		}
		else if (strncmp(p, "needs_sync\n", 11) == 0)
			rec->needs_sync = true;
		else if (sscanf(p, "autoconf %zu\n", &n) == 1)
		{
			const char *bytes = memchr(p, '\n', end - p);

			/* the bytes, then the newline that ends them */
			if (bytes == NULL || (Size) (end - bytes - 1) <= n || bytes[1 + n] != '\n')
				return false;
			rec->autoconf = palloc(n + 1);
			memcpy(rec->autoconf, bytes + 1, n);
			rec->autoconf[n] = '\0';
			rec->autoconf_len = n;
			p = bytes + 1 + n;	/* that newline: the next line is after it */
		}
		else if (strncmp(p, "end\n", 4) == 0)
			closed = true;
		else
			return false;
	}
	/* a record that holds settings is whole only with its copy and its end */
	if (rec->has_settings && (!closed || (rec->had_autoconf && rec->autoconf == NULL)))
		return false;
	return true;
}

/*
 * Read the crash record into *rec: false when there is none.  A record
 * that cannot be read is reported in rec->unreadable (true returned),
 * with whether it held server settings, so that the caller can put back
 * what it can.
 */
bool
wp_record_read(WpCrashRecord *rec)
{
	Size		len;
	char	   *text;

	memset(rec, 0, sizeof(WpCrashRecord));
	text = wp_read_whole(WP_RECORD_FILE, &len);
	if (text != NULL && !wp_record_parse(text, len, rec))
	{
		memset(rec, 0, sizeof(WpCrashRecord));
		rec->unreadable = true;
		/*
		 * what it held cannot be known: if a line of it names settings, it
		 * may have held them
		 */
		rec->settings_unreadable = strstr(text, "\nsettings ") != NULL;
		rec->has_settings = rec->settings_unreadable;
	}
	/* what a release before 0.7.0 left */
	if (access(WP_LEGACY_SETTINGS, F_OK) == 0 || access(WP_LEGACY_AUTOCONF, F_OK) == 0 ||
		access(WP_LEGACY_NEEDS_SYNC, F_OK) == 0)
		wp_record_read_legacy(rec);
	return text != NULL || rec->has_settings || rec->needs_sync ||
		access(WP_LEGACY_AUTOCONF, F_OK) == 0;
}

/* The files of a release before 0.7.0, gone (the caller forces fsync on). */
static void
wp_record_remove_legacy(int elevel)
{
	if (access(WP_LEGACY_SETTINGS, F_OK) == 0)
		(void) durable_unlink(WP_LEGACY_SETTINGS, elevel);
	if (access(WP_LEGACY_NEEDS_SYNC, F_OK) == 0)
		(void) durable_unlink(WP_LEGACY_NEEDS_SYNC, elevel);
	if (unlink(WP_LEGACY_AUTOCONF) != 0 && errno != ENOENT)
		ereport(elevel,
				(errcode_for_file_access(),
				 errmsg("could not remove file \"%s\": %m", WP_LEGACY_AUTOCONF)));
}

/*
 * Write the whole record, durably and atomically, even from a process that
 * runs with fsync = off.
 */
void
wp_record_write(const WpCrashRecord *rec)
{
	StringInfoData out;
	ListCell   *lc;
	bool		save = enableFsync;

	initStringInfo(&out);
	appendStringInfo(&out, INT64_FORMAT " %u\n", rec->sweep_id, rec->dboid);
	if (rec->has_cap)
		appendStringInfo(&out, "cap %u:%u " INT64_FORMAT " " INT64_FORMAT " %s\n",
						 rec->cap.dev.major, rec->cap.dev.minor, rec->cap.prev_write_iops,
						 rec->cap.prev_read_iops, rec->cap.cgroup);
	if (rec->has_settings)
	{
		appendStringInfo(&out, "settings %s\n", rec->had_autoconf ? "present" : "absent");
		foreach(lc, rec->managed)
			appendStringInfo(&out, "setting %s\n", (char *) lfirst(lc));
		if (rec->had_autoconf)
		{
			appendStringInfo(&out, "autoconf %zu\n", (size_t) rec->autoconf_len);
			appendBinaryStringInfo(&out, rec->autoconf, rec->autoconf_len);
			appendStringInfoChar(&out, '\n');
		}
	}
	if (rec->needs_sync)
		appendStringInfoString(&out, "needs_sync\n");
	appendStringInfoString(&out, "end\n");

	enableFsync = true;
	PG_TRY();
	{
		wp_write_whole(WP_RECORD_FILE, WP_RECORD_TMP, out.data, out.len);
		/* it holds what a release before 0.7.0 kept in files of its own */
		wp_record_remove_legacy(ERROR);
	}
	PG_FINALLY();
	{
		enableFsync = save;
	}
	PG_END_TRY();
}

/*
 * Forget the record (and what a release before 0.7.0 left), durably.
 */
void
wp_record_remove(int elevel)
{
	bool		save = enableFsync;

	enableFsync = true;
	PG_TRY();
	{
		if (access(WP_RECORD_FILE, F_OK) == 0)
			(void) durable_unlink(WP_RECORD_FILE, elevel);
		wp_record_remove_legacy(elevel);
	}
	PG_FINALLY();
	{
		enableFsync = save;
	}
	PG_END_TRY();
}

/* The record's file, for messages. */
const char *
wp_record_file(const WpCrashRecord *rec)
{
	return rec->legacy_file ? rec->legacy_file : WP_RECORD_FILE;
}

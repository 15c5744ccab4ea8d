/*-------------------------------------------------------------------------
 *
 * record.c
 *		What a sweep's server-wide settings leave in the data directory so
 *		that they can always be put back: postgresql.auto.conf copied aside,
 *		the record of the settings the sweep manages, and the marker that
 *		the data directory needs a sync after fsync = off; and putting them
 *		back, by the coordinator, the recovery worker, or the postmaster at
 *		start (see server_settings.c for the whole design).
 *
 * IDENTIFICATION
 *	  src/restore/record.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <sys/stat.h>
#include <unistd.h>

#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "storage/fd.h"
#include "storage/lwlock.h"
#include "storage/proc.h"
#include "utils/guc.h"

#include "sweep/policy.h"
#include "restore/record.h"

#define WP_SETTINGS_FILE		"walpressure.settings"
#define WP_SETTINGS_FILE_TMP	"walpressure.settings.tmp"
#define WP_AUTOCONF_COPY		"walpressure.auto.conf.orig"
#define WP_AUTOCONF_COPY_TMP	"walpressure.auto.conf.orig.tmp"
#define WP_AUTOCONF_TMP			PG_AUTOCONF_FILENAME ".walpressure.tmp"
#define WP_NEEDS_SYNC_FILE		"walpressure.needs_sync"

/* ---------- files ---------- */

/*
 * The whole of a file, or NULL if it does not exist.
 */
static char *
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
static void
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

/*
 * The entries of a configuration file's text, as ParseConfigFp reads them.
 */
static ConfigVariable *
wp_parse_conf(const char *text, Size len)
{
	ConfigVariable *head = NULL;
	ConfigVariable *tail = NULL;
	FILE	   *f;

	if (text == NULL || len == 0)
		return NULL;
	f = fmemopen((void *) text, len, "r");
	if (f == NULL)
		elog(ERROR, "fmemopen failed: %m");
	if (!ParseConfigFp(f, PG_AUTOCONF_FILENAME, 0, LOG, &head, &tail))
	{
		fclose(f);
		ereport(ERROR,
				(errcode(ERRCODE_CONFIG_FILE_ERROR),
				 errmsg("could not parse the contents of \"%s\"", PG_AUTOCONF_FILENAME)));
	}
	fclose(f);
	return head;
}

static bool
wp_name_in(const char *name, List *names)
{
	ListCell   *lc;

	foreach(lc, names)
		if (pg_strcasecmp(name, (const char *) lfirst(lc)) == 0)
			return true;
	return false;
}

/*
 * Are the two entry lists equal once the `managed` settings are left out?
 */
static bool
wp_same_but_managed(ConfigVariable *a, ConfigVariable *b, List *managed)
{
	for (;;)
	{
		while (a && wp_name_in(a->name, managed))
			a = a->next;
		while (b && wp_name_in(b->name, managed))
			b = b->next;
		if (a == NULL || b == NULL)
			return a == b;
		if (pg_strcasecmp(a->name, b->name) != 0 || strcmp(a->value, b->value) != 0)
			return false;
		a = a->next;
		b = b->next;
	}
}

/* ---------- the record of what a sweep changes ---------- */

bool
wp_settings_record_read(WpSettingsRecord *rec)
{
	Size		len;
	char	   *text = wp_read_whole(WP_SETTINGS_FILE, &len);
	char	   *save = NULL;
	bool		have_sweep = false;
	bool		have_autoconf = false;

	memset(rec, 0, sizeof(*rec));
	if (text == NULL)
		return false;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
	{
		long long	id;

		if (sscanf(line, "sweep %lld", &id) == 1)
		{
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
	if (!have_sweep || !have_autoconf)
	{
		ereport(LOG,
				(errmsg("walpressure: \"%s\" is incomplete and is ignored", WP_SETTINGS_FILE)));
		return false;
	}
	return true;
}

/* One line of a configuration file, and the setting it sets, if any. */
typedef struct WpConfLine
{
	const char *text;			/* the line as written, its newline included */
	Size		len;
	char	   *name;			/* NULL: a comment or a blank line */
	char	   *value;
	bool		used;
	struct WpConfLine *next;
} WpConfLine;

/* A file's lines, each parsed on its own (the syntax is line by line). */
static WpConfLine *
wp_conf_lines(const char *text, Size len)
{
	WpConfLine *head = NULL;
	WpConfLine **tail = &head;

	for (const char *line = text, *next; line && line < text + len; line = next)
	{
		WpConfLine *l = palloc0(sizeof(WpConfLine));
		ConfigVariable *e;

		next = memchr(line, '\n', text + len - line);
		next = next ? next + 1 : text + len;
		l->text = line;
		l->len = next - line;
		if ((e = wp_parse_conf(line, next - line)) != NULL)
		{
			l->name = e->name;
			l->value = e->value;
		}
		*tail = l;
		tail = &l->next;
	}
	return head;
}

/* The last line that sets `name` (the one in effect), or NULL. */
static WpConfLine *
wp_conf_find(WpConfLine *lines, const char *name)
{
	WpConfLine *found = NULL;

	for (WpConfLine *l = lines; l; l = l->next)
		if (l->name != NULL && pg_strcasecmp(l->name, name) == 0)
			found = l;
	return found;
}

/* Does `lines` hold a line written exactly as `line`? */
static bool
wp_conf_has_text(WpConfLine *lines, const WpConfLine *line)
{
	for (WpConfLine *l = lines; l; l = l->next)
		if (l->len == line->len && memcmp(l->text, line->text, l->len) == 0)
			return true;
	return false;
}

/*
 * Restore postgresql.auto.conf as recorded.  Called by the coordinator (with
 * AutoFileLock) and by the postmaster at startup (alone).  Returns what was
 * done, for the log and the sweep's row.
 */
static const char *
wp_restore_autoconf(const WpSettingsRecord *rec)
{
	Size		orig_len = 0;
	Size		cur_len = 0;
	char	   *orig = NULL;
	char	   *cur;
	bool		lock = IsUnderPostmaster && MyProc != NULL;
	const char *volatile how = NULL;

	if (rec->had_autoconf)
	{
		orig = wp_read_whole(WP_AUTOCONF_COPY, &orig_len);
		if (orig == NULL)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("walpressure's copy of %s, \"%s\", is missing",
							PG_AUTOCONF_FILENAME, WP_AUTOCONF_COPY)));
	}

	if (lock)
		LWLockAcquire(AutoFileLock, LW_EXCLUSIVE);
	PG_TRY();
	{
		cur = wp_read_whole(PG_AUTOCONF_FILENAME, &cur_len);

		if (wp_same_but_managed(wp_parse_conf(orig, orig_len), wp_parse_conf(cur, cur_len),
								rec->managed))
		{
			/* only the sweep changed it: the original, byte for byte */
			if (!rec->had_autoconf)
			{
				if (cur != NULL)
					(void) durable_unlink(PG_AUTOCONF_FILENAME, ERROR);
			}
			else if (cur == NULL || cur_len != orig_len || memcmp(cur, orig, orig_len) != 0)
				wp_write_whole(PG_AUTOCONF_FILENAME, WP_AUTOCONF_TMP, orig, orig_len);
			how = "restored byte for byte";
		}
		else
		{
			/*
			 * Someone else changed it too: the original file, line by line
			 * (its comments and layout), with their changes to the settings
			 * the sweep does not manage, then the lines they added (hand
			 * edits and comments included, as written).
			 */
			StringInfoData out;
			WpConfLine *olines = wp_conf_lines(orig, orig_len);
			WpConfLine *clines = wp_conf_lines(cur, cur_len);

			initStringInfo(&out);
			for (WpConfLine *o = olines; o; o = o->next)
			{
				WpConfLine *c;

				if (o->name == NULL || wp_name_in(o->name, rec->managed))
				{
					appendBinaryStringInfo(&out, o->text, o->len);
					continue;
				}
				c = wp_conf_find(clines, o->name);
				if (c == NULL)
					continue;	/* they reset it */
				c->used = true;
				if (strcmp(c->value, o->value) == 0)
					appendBinaryStringInfo(&out, o->text, o->len);
				else
					appendBinaryStringInfo(&out, c->text, c->len);
			}
			for (WpConfLine *c = clines; c; c = c->next)
			{
				if (c->used || (c->name != NULL && (wp_name_in(c->name, rec->managed) ||
													  wp_conf_find(olines, c->name) != NULL)))
					continue;
				if (c->name == NULL && wp_conf_has_text(olines, c))
					continue;	/* a comment the original has */
				appendBinaryStringInfo(&out, c->text, c->len);
				if (c->len > 0 && c->text[c->len - 1] != '\n')
					appendStringInfoChar(&out, '\n');
			}
			wp_write_whole(PG_AUTOCONF_FILENAME, WP_AUTOCONF_TMP, out.data, out.len);
			how = "restored setting by setting (postgresql.auto.conf was also changed by someone else during the sweep)";
		}
	}
	PG_FINALLY();
	{
		if (lock)
			LWLockRelease(AutoFileLock);
	}
	PG_END_TRY();
	return how;
}

static void
wp_settings_files_remove(int elevel)
{
	(void) durable_unlink(WP_SETTINGS_FILE, elevel);
	if (unlink(WP_AUTOCONF_COPY) != 0 && errno != ENOENT)
		ereport(elevel,
				(errcode_for_file_access(),
				 errmsg("could not remove file \"%s\": %m", WP_AUTOCONF_COPY)));
}

/*
 * Put postgresql.auto.conf back and forget the record, durably even if this
 * process still runs with fsync = off.
 */
const char *
wp_restore_and_forget(const WpSettingsRecord *rec)
{
	bool		save = enableFsync;
	const char *volatile how = NULL;

	enableFsync = true;
	PG_TRY();
	{
		how = wp_restore_autoconf(rec);
		wp_settings_files_remove(ERROR);
	}
	PG_FINALLY();
	{
		enableFsync = save;
	}
	PG_END_TRY();
	return how;
}

/*
 * If the sweep ran with fsync = off, get what was written meanwhile to disk,
 * then drop the marker.  sync(2), not SyncDataDirectory(): that one belongs
 * to the startup process (it reports progress with the startup timeout), and
 * this runs in the postmaster too; sync also reaches a pg_wal or tablespace
 * on another file system.  Linux's sync waits for the writes.
 */
void
wp_sync_if_needed(void)
{
	bool		save = enableFsync;

	if (access(WP_NEEDS_SYNC_FILE, F_OK) != 0)
		return;
	ereport(LOG,
			(errmsg("walpressure: syncing the data directory: a sweep ran with fsync = off")));
	sync();
	enableFsync = true;
	PG_TRY();
	{
		(void) durable_unlink(WP_NEEDS_SYNC_FILE, ERROR);
	}
	PG_FINALLY();
	{
		enableFsync = save;
	}
	PG_END_TRY();
}

/*
 * A record that cannot be read (damaged on disk) cannot say what a sweep
 * changed.  The copy of postgresql.auto.conf, made before the record and
 * before the sweep's first change (empty when there was no file), is the
 * file as it was: put it back whole, so that nothing a sweep set (fsync =
 * off, say) stays in effect.  Without a copy (removed by hand), the lines
 * that set a setting a sweep can change server-wide go.  Then forget both.
 * The caller reloads.  Returns how, for the log and the sweep's row.
 */
const char *
wp_settings_restore_unreadable(void)
{
	Size		len = 0;
	char	   *orig = wp_read_whole(WP_AUTOCONF_COPY, &len);
	bool		save = enableFsync;
	bool		lock = IsUnderPostmaster && MyProc != NULL;
	const char *how;

	enableFsync = true;
	if (lock)
		LWLockAcquire(AutoFileLock, LW_EXCLUSIVE);
	PG_TRY();
	{
		if (orig != NULL)
		{
			wp_write_whole(PG_AUTOCONF_FILENAME, WP_AUTOCONF_TMP, orig, len);
			how = "restored whole from walpressure's copy (its record of the sweep was unreadable)";
		}
		else
		{
			Size		cur_len = 0;
			char	   *cur = wp_read_whole(PG_AUTOCONF_FILENAME, &cur_len);
			StringInfoData out;

			initStringInfo(&out);
			for (char *line = cur, *next; line && line < cur + cur_len; line = next)
			{
				bool		server_line = false;

				next = memchr(line, '\n', cur + cur_len - line);
				next = next ? next + 1 : cur + cur_len;
				for (ConfigVariable *e = wp_parse_conf(line, next - line); e; e = e->next)
					if (wp_param_kind(e->name) == WP_PARAM_SERVER)
						server_line = true;
				if (!server_line)
					appendBinaryStringInfo(&out, line, next - line);
			}
			if (cur != NULL)
				wp_write_whole(PG_AUTOCONF_FILENAME, WP_AUTOCONF_TMP, out.data, out.len);
			how = "restored by removing every setting a sweep can change (its record was unreadable and there was no copy)";
		}
		wp_settings_files_remove(ERROR);
	}
	PG_FINALLY();
	{
		if (lock)
			LWLockRelease(AutoFileLock);
		enableFsync = save;
	}
	PG_END_TRY();
	return how;
}

/*
 * In the postmaster, from the shared-memory startup hook (server start and
 * crash restart, no other process running): put back what an interrupted
 * sweep changed, and reload.
 */
void
wp_server_settings_startup(void)
{
	WpSettingsRecord rec;

	MemoryContext cxt = CurrentMemoryContext;

	PG_TRY();
	{
		if (wp_settings_record_read(&rec))
		{
			const char *how = wp_restore_and_forget(&rec);

			ProcessConfigFile(PGC_SIGHUP);
			ereport(LOG,
					(errmsg("walpressure: the server settings interrupted sweep " INT64_FORMAT " changed are %s",
							rec.sweep_id, how)));
		}
		else if (access(WP_SETTINGS_FILE, F_OK) != 0 && access(WP_AUTOCONF_COPY, F_OK) == 0)
			(void) unlink(WP_AUTOCONF_COPY);	/* copied, but nothing changed */
		else if (access(WP_SETTINGS_FILE, F_OK) == 0)
		{
			const char *how = wp_settings_restore_unreadable();

			ProcessConfigFile(PGC_SIGHUP);
			ereport(WARNING,
					(errmsg("walpressure: its record of a sweep's server settings, \"%s\", was unreadable",
							WP_SETTINGS_FILE),
					 errdetail("%s is %s.", PG_AUTOCONF_FILENAME, how)));
		}
		wp_sync_if_needed();
	}
	PG_CATCH();
	{
		/* the postmaster must not fail to start on this: say so loudly */
		MemoryContextSwitchTo(cxt);
		EmitErrorReport();
		FlushErrorState();
		ereport(WARNING,
				(errmsg("walpressure could not restore the settings of an interrupted sweep"),
				 errdetail("\"%s\" and \"%s\" in the data directory hold what to restore.",
						   WP_SETTINGS_FILE, WP_AUTOCONF_COPY),
				 errhint("Compare postgresql.auto.conf with \"%s\", fix it, and delete both files.",
						 WP_AUTOCONF_COPY)));
	}
	PG_END_TRY();
}

/*
 * Before the sweep's first change: copy postgresql.auto.conf aside, then
 * record durably which settings the sweep manages.
 */
void
wp_settings_record_write(int64 sweep_id, List *managed)
{
	StringInfoData rec;
	Size		len;
	char	   *text;
	ListCell   *lc;

	/* the copy first, always (empty when there is no file): see wp_settings_restore_unreadable */
	text = wp_read_whole(PG_AUTOCONF_FILENAME, &len);
	wp_write_whole(WP_AUTOCONF_COPY, WP_AUTOCONF_COPY_TMP, text ? text : "", text ? len : 0);

	initStringInfo(&rec);
	appendStringInfo(&rec, "sweep " INT64_FORMAT "\nautoconf %s\n", sweep_id,
					 text != NULL ? "present" : "absent");
	foreach(lc, managed)
		appendStringInfo(&rec, "setting %s\n", (char *) lfirst(lc));
	wp_write_whole(WP_SETTINGS_FILE, WP_SETTINGS_FILE_TMP, rec.data, rec.len);
}

/*
 * A later step turned fsync back on: what was written with it off goes to
 * disk now.  The marker stays until the sweep ends (wp_sync_if_needed):
 * a process that has not reloaded yet may still write without fsync.
 */
void
wp_sync_now(void)
{
	if (access(WP_NEEDS_SYNC_FILE, F_OK) != 0)
		return;
	ereport(LOG,
			(errmsg("walpressure: syncing the data directory: fsync is back on after a step with fsync = off")));
	sync();
}

/*
 * Before fsync goes off: the mark that the data directory needs a sync.
 */
void
wp_settings_mark_needs_sync(void)
{
	if (access(WP_NEEDS_SYNC_FILE, F_OK) != 0)
		wp_write_whole(WP_NEEDS_SYNC_FILE, WP_NEEDS_SYNC_FILE ".tmp", "", 0);
}

/* Is there a record that could not be read? */
bool
wp_settings_record_unreadable(void)
{
	WpSettingsRecord rec;

	return access(WP_SETTINGS_FILE, F_OK) == 0 && !wp_settings_record_read(&rec);
}

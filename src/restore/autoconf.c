/*-------------------------------------------------------------------------
 *
 * autoconf.c
 *		Putting postgresql.auto.conf back as it was before a sweep: byte for
 *		byte when only the sweep changed it; else the original with the
 *		changes others made to the settings the sweep did not manage, and
 *		the lines they added; or, when nothing says what the sweep changed,
 *		without any setting a sweep can change.
 *
 * IDENTIFICATION
 *	  src/restore/autoconf.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <unistd.h>

#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "storage/fd.h"
#include "storage/lwlock.h"
#include "storage/proc.h"
#include "utils/guc.h"

#include "common/durable.h"
#include "restore/autoconf.h"
#include "sweep/policy.h"

#define WP_AUTOCONF_TMP			PG_AUTOCONF_FILENAME ".walpressure.tmp"

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
 * Put postgresql.auto.conf back as it was before a sweep (`orig`, or no
 * file when !had_autoconf), where the sweep changed only the `managed`
 * settings.  Called by the coordinator (with AutoFileLock) and by the
 * postmaster at startup (alone), with fsync forced on for the writes.
 * Returns what was done, for the log and the sweep's row.
 */
const char *
wp_autoconf_restore(const char *orig, Size orig_len, bool had_autoconf, List *managed)
{
	Size		cur_len = 0;
	char	   *cur;
	bool		lock = IsUnderPostmaster && MyProc != NULL;
	bool		save = enableFsync;
	const char *volatile how = NULL;

	enableFsync = true;
	if (lock)
		LWLockAcquire(AutoFileLock, LW_EXCLUSIVE);
	PG_TRY();
	{
		cur = wp_read_whole(PG_AUTOCONF_FILENAME, &cur_len);

		if (wp_same_but_managed(wp_parse_conf(orig, orig_len), wp_parse_conf(cur, cur_len),
								managed))
		{
			/* only the sweep changed it: the original, byte for byte */
			if (!had_autoconf)
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

				if (o->name == NULL || wp_name_in(o->name, managed))
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
				if (c->used || (c->name != NULL && (wp_name_in(c->name, managed) ||
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
		enableFsync = save;
	}
	PG_END_TRY();
	return how;
}

/*
 * postgresql.auto.conf without any line that sets a setting a sweep can
 * change server-wide: what is left to do when a sweep's record of what it
 * changed cannot be read (and there is no copy of the file as it was), so
 * that nothing a sweep set (fsync = off, say) stays in effect.
 */
const char *
wp_autoconf_strip_sweepable(void)
{
	Size		cur_len = 0;
	char	   *cur;
	StringInfoData out;
	bool		lock = IsUnderPostmaster && MyProc != NULL;
	bool		save = enableFsync;

	enableFsync = true;
	if (lock)
		LWLockAcquire(AutoFileLock, LW_EXCLUSIVE);
	PG_TRY();
	{
		cur = wp_read_whole(PG_AUTOCONF_FILENAME, &cur_len);
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
	}
	PG_FINALLY();
	{
		if (lock)
			LWLockRelease(AutoFileLock);
		enableFsync = save;
	}
	PG_END_TRY();
	return "restored by removing every setting a sweep can change (its record was unreadable and there was no copy)";
}

/*
 * postgresql.auto.conf written whole from `text` (a copy of it as it was),
 * durably even by a process with fsync = off.
 */
void
wp_autoconf_write(const char *text, Size len)
{
	bool		lock = IsUnderPostmaster && MyProc != NULL;
	bool		save = enableFsync;

	enableFsync = true;
	if (lock)
		LWLockAcquire(AutoFileLock, LW_EXCLUSIVE);
	PG_TRY();
	{
		wp_write_whole(PG_AUTOCONF_FILENAME, WP_AUTOCONF_TMP, text, len);
	}
	PG_FINALLY();
	{
		if (lock)
			LWLockRelease(AutoFileLock);
		enableFsync = save;
	}
	PG_END_TRY();
}

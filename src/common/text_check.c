/*-------------------------------------------------------------------------
 *
 * text_check.c
 *		Text that comes from outside (a caller's label or value, an
 *		imported document, what a fleet member answers) checked or cleaned
 *		against every character that can change how the rest of a line
 *		reads on a terminal or in a chart: Unicode's controls (C0, DEL, C1:
 *		U+009B is a terminal's CSI), the line and paragraph separators, and
 *		the format characters (Cf: the bidirectional overrides, embeddings,
 *		isolates and marks such as U+202E, zero-width characters, the byte
 *		order mark).  Newline, tab and carriage return are allowed only in
 *		texts that hold lines (SQL, a script, an error).
 *
 * Characters are read in the database's encoding and judged by their code
 * point: in UTF-8 directly, in another encoding through its conversion to
 * UTF-8, in SQL_ASCII (no encoding at all) as UTF-8 where the bytes are
 * valid UTF-8 and as Latin-1 where they are not, so that no byte from
 * 0x80 to 0x9F passes as something else.
 *
 * IDENTIFICATION
 *	  src/common/text_check.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"
#include "mb/pg_wchar.h"

#include "common/text_check.h"

/*
 * Unicode's format characters (general category Cf, Unicode 15), and the
 * line and paragraph separators (Zl, Zp), as ranges of code points.
 */
static const pg_wchar wp_format_chars[][2] = {
	{0x00AD, 0x00AD}, {0x0600, 0x0605}, {0x061C, 0x061C}, {0x06DD, 0x06DD},
	{0x070F, 0x070F}, {0x0890, 0x0891}, {0x08E2, 0x08E2}, {0x180E, 0x180E},
	{0x200B, 0x200F}, {0x2028, 0x202E}, {0x2060, 0x2064}, {0x2066, 0x206F},
	{0xFEFF, 0xFEFF}, {0xFFF9, 0xFFFB}, {0x110BD, 0x110BD}, {0x110CD, 0x110CD},
	{0x13430, 0x1343F}, {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A}, {0xE0001, 0xE0001},
	{0xE0020, 0xE007F}
};

/* May code point c stand in a text (lines: one that holds lines)? */
static bool
wp_char_safe(pg_wchar c, bool lines)
{
	if (c < 0x20)
		return lines && (c == '\n' || c == '\t' || c == '\r');
	if (c >= 0x7F && c <= 0x9F)
		return false;
	for (int i = 0; i < lengthof(wp_format_chars); i++)
		if (c >= wp_format_chars[i][0] && c <= wp_format_chars[i][1])
			return false;
	return true;
}

/*
 * The code point of the character at s (at most len bytes), and its length
 * in bytes in the database's encoding.
 */
static pg_wchar
wp_char_at(const char *s, int len, int *clen)
{
	int			enc = GetDatabaseEncoding();
	const unsigned char *u = (const unsigned char *) s;

	if (u[0] < 0x80)
	{
		*clen = 1;
		return u[0];
	}
	if (enc == PG_UTF8 || enc == PG_SQL_ASCII)
	{
		int			l = pg_utf_mblen(u);

		if (l <= len && pg_utf8_islegal(u, l))
		{
			*clen = l;
			return utf8_to_unicode(u);
		}
		/* SQL_ASCII's bytes that are no UTF-8: read as Latin-1 */
		*clen = 1;
		return u[0];
	}
	else
	{
		int			l = Min(pg_mblen(s), len);
		char	   *utf8 = (char *) pg_do_encoding_conversion((unsigned char *) pnstrdup(s, l), l,
															  enc, PG_UTF8);

		*clen = l;
		return utf8_to_unicode((const unsigned char *) utf8);
	}
}

/*
 * The first character of s (len bytes) that may not stand in it, as a code
 * point, or -1 when there is none.
 */
int32
wp_text_unsafe(const char *s, int len, bool lines)
{
	for (int i = 0; i < len;)
	{
		int			clen;
		pg_wchar	c = wp_char_at(s + i, len - i, &clen);

		if (!wp_char_safe(c, lines))
			return (int32) c;
		i += clen;
	}
	return -1;
}

/*
 * Refuse s (len bytes) when a character may not stand in it: what names
 * the text in the message ("label", "a value of commit_delay").
 */
void
wp_text_check(const char *what, const char *s, int len, bool lines)
{
	int32		c = wp_text_unsafe(s, len, lines);

	if (c >= 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s contains a control or formatting character (U+%04X)", what, (unsigned) c),
				 errdetail("Controls, line separators and bidirectional or invisible formatting characters would change how the text reads on a terminal or in a chart."),
				 lines ? errhint("Lines may hold newlines and tabs, nothing else of the kind.") :
				 errhint("Give it as one line of visible text.")));
}

/*
 * s (len bytes) with each run of characters that may not stand in one line
 * made one space, for text from a server of the fleet that is shown as it
 * came.
 */
char *
wp_text_clean(const char *s, int len)
{
	StringInfoData out;
	bool		gap = false;

	initStringInfo(&out);
	for (int i = 0; i < len;)
	{
		int			clen;
		pg_wchar	c = wp_char_at(s + i, len - i, &clen);

		if (!wp_char_safe(c, false))
		{
			if (!gap)
				appendStringInfoChar(&out, ' ');
			gap = true;
		}
		else
		{
			appendBinaryStringInfo(&out, s + i, clen);
			gap = false;
		}
		i += clen;
	}
	return out.data;
}

/*
 * s (len bytes) as one line of text from a server of the fleet, as a
 * terminal or a chart may show it: wp_text_clean's, cut to at most 1000
 * characters at a character's end.
 */
char *
wp_text_line(const char *s, int len)
{
	char	   *clean = wp_text_clean(s, len);

	clean[pg_mbcharcliplen(clean, strlen(clean), 1000)] = '\0';
	return clean;
}

/*-------------------------------------------------------------------------
 *
 * text_cut.c
 *		Text made valid in the database's encoding (a program's output), and
 *		text cut on a character boundary into a buffer of shared memory.
 *
 * IDENTIFICATION
 *	  src/common/text_cut.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "mb/pg_wchar.h"

#include "common/text_cut.h"

/*
 * Make text from outside (a program's output) valid in the database's
 * encoding, in place: each byte that starts no valid character becomes '?'.
 */
void
wp_make_valid(char *text)
{
	int			enc = GetDatabaseEncoding();
	int			len = strlen(text);
	char	   *p = text;

	while (len > 0)
	{
		int			ok = pg_encoding_verifymbstr(enc, p, len);

		p += ok;
		len -= ok;
		if (len > 0)
		{
			*p++ = '?';
			len--;
		}
	}
}

/*
 * Copy text into a buffer of `size` bytes in shared memory, cut on a
 * character boundary: a cut in the middle of a character would be invalid
 * in the database's encoding when it is raised or stored.
 */
void
wp_copy_text(char *dst, const char *src, Size size)
{
	int			len = pg_mbcliplen(src, strlen(src), size - 1);

	memcpy(dst, src, len);
	dst[len] = '\0';
}

/*-------------------------------------------------------------------------
 *
 * clean_line.c
 *		_clean_line(text): text from a server of the fleet as one line a
 *		terminal or a chart may show, for the SQL that records what a
 *		member answered (common/text_check.c says what is taken out).
 *
 * IDENTIFICATION
 *	  src/api/clean_line.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/builtins.h"
#if PG_VERSION_NUM >= 160000
#include "varatt.h"
#endif

#include "common/text_check.h"

PG_FUNCTION_INFO_V1(wp_clean_line);

/*
 * _clean_line(t text) returns text: each run of controls, line separators
 * and formatting characters made one space, at most 1000 characters.
 */
Datum
wp_clean_line(PG_FUNCTION_ARGS)
{
	text	   *t = PG_GETARG_TEXT_PP(0);

	PG_RETURN_TEXT_P(cstring_to_text(wp_text_line(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t))));
}

/*-------------------------------------------------------------------------
 *
 * text_cut.h
 *		Text made valid in the database's encoding, and cut (text_cut.c).
 *
 * IDENTIFICATION
 *	  src/common/text_cut.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_TEXT_CUT_H
#define WALPRESSURE_TEXT_CUT_H

#include "c.h"

extern void wp_make_valid(char *text);
extern void wp_copy_text(char *dst, const char *src, Size size);

#endif							/* WALPRESSURE_TEXT_CUT_H */

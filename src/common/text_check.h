/*-------------------------------------------------------------------------
 *
 * text_check.h
 *		Text from outside, checked or cleaned against controls and
 *		formatting characters (text_check.c).
 *
 * IDENTIFICATION
 *	  src/common/text_check.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_TEXT_CHECK_H
#define WALPRESSURE_TEXT_CHECK_H

extern int32 wp_text_unsafe(const char *s, int len, bool lines);
extern void wp_text_check(const char *what, const char *s, int len, bool lines);
extern char *wp_text_clean(const char *s, int len);
extern char *wp_text_line(const char *s, int len);

#endif							/* WALPRESSURE_TEXT_CHECK_H */

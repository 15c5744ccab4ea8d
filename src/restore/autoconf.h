/*-------------------------------------------------------------------------
 *
 * autoconf.h
 *		postgresql.auto.conf put back as it was before a sweep
 *		(autoconf.c).
 *
 * IDENTIFICATION
 *	  src/restore/autoconf.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_AUTOCONF_H
#define WALPRESSURE_AUTOCONF_H

#include "nodes/pg_list.h"

extern const char *wp_autoconf_restore(const char *orig, Size orig_len, bool had_autoconf,
									   List *managed);
extern const char *wp_autoconf_strip_sweepable(void);
extern void wp_autoconf_write(const char *text, Size len);

#endif							/* WALPRESSURE_AUTOCONF_H */

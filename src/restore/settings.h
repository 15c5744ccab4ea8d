/*-------------------------------------------------------------------------
 *
 * settings.h
 *		A sweep's server-wide settings recorded and put back (settings.c).
 *
 * IDENTIFICATION
 *	  src/restore/settings.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_RESTORE_SETTINGS_H
#define WALPRESSURE_RESTORE_SETTINGS_H

#include "restore/record.h"

extern void wp_settings_record_begin(WpCrashRecord *rec, List *managed);
extern void wp_settings_mark_needs_sync(WpCrashRecord *rec);
extern void wp_settings_sync_now(const WpCrashRecord *rec);
extern void wp_settings_sync_done(WpCrashRecord *rec);
extern const char *wp_settings_put_back(WpCrashRecord *rec);
extern const char *wp_settings_restore(WpCrashRecord *rec, bool check, const char *originals);

#endif							/* WALPRESSURE_RESTORE_SETTINGS_H */

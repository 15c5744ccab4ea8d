/*-------------------------------------------------------------------------
 *
 * record.h
 *		The record of a sweep's server-wide settings in the data directory,
 *		and putting them back (settings_record.c).
 *
 * IDENTIFICATION
 *	  src/restore/record.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_SETTINGS_RECORD_H
#define WALPRESSURE_SETTINGS_RECORD_H

#include "nodes/pg_list.h"

typedef struct WpSettingsRecord
{
	int64		sweep_id;
	bool		had_autoconf;
	List	   *managed;		/* setting names */
} WpSettingsRecord;

extern void wp_settings_record_write(int64 sweep_id, List *managed);
extern bool wp_settings_record_read(WpSettingsRecord *rec);
extern bool wp_settings_record_unreadable(void);
extern void wp_settings_mark_needs_sync(void);
extern const char *wp_settings_restore_unreadable(void);
extern void wp_sync_now(void);
extern const char *wp_restore_and_forget(const WpSettingsRecord *rec);
extern void wp_sync_if_needed(void);
extern void wp_server_settings_startup(void);

#endif							/* WALPRESSURE_SETTINGS_RECORD_H */

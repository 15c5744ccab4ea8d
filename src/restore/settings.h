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

#include "nodes/pg_list.h"

extern void wp_server_settings_begin(int64 sweep_id, List *managed);
extern const char *wp_server_settings_end(int64 sweep_id, bool check, const char *originals);

#endif							/* WALPRESSURE_RESTORE_SETTINGS_H */

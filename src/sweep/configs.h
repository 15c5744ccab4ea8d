/*-------------------------------------------------------------------------
 *
 * configs.h
 *		What each value of a sweep sets (configs.c).
 *
 * IDENTIFICATION
 *	  src/sweep/configs.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_CONFIGS_H
#define WALPRESSURE_CONFIGS_H

#include "nodes/pg_list.h"

#include "sweep/request.h"

extern bool wp_value_sets(const WpSweepRequest *req, int pos, const char *name,
						  const char **value);
extern int	wp_value_session_settings(const WpSweepRequest *req, int pos, WpSetting *dst, int max);
extern List *wp_request_server_names(const WpSweepRequest *req);

#endif							/* WALPRESSURE_CONFIGS_H */

/*-------------------------------------------------------------------------
 *
 * values.h
 *		Checking one value of a setting, of the load, or a name, as the
 *		caller (values.c).
 *
 * IDENTIFICATION
 *	  src/api/values.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_VALUES_H
#define WALPRESSURE_VALUES_H

#include "fmgr.h"
#include "utils/jsonb.h"

#include "sweep/request.h"

extern void wp_copy_bounded(char *dst, const char *src, Size size, const char *what);
extern void wp_caller_search_path(char *dst);
extern void wp_check_one_value(const char *name, const char *value);
extern int	wp_check_round_trip(const char *value);
extern int	wp_check_load_value(const char *name, const char *value);
extern int	wp_check_disk_value(const char *value);
extern void wp_fold_name(char *name);
extern const char *wp_check_protocol(const char *value);
extern void wp_refuse_setting(const char *name, const char *what);
extern void wp_check_setting_value(WpParamKind kind, const char *name, const char *value,
								   bool accept_data_loss);
extern char *wp_value_as_held(const char *name, const char *value);
extern char *wp_value_refusal(const char *name, const char *value);
extern char *wp_check_swept_value(const WpSweepRequest *req, const char *v, int *ival);
extern int64 wp_request_values(FunctionCallInfo fcinfo, WpSweepRequest *req, Datum **elems);
extern char *wp_pg_settings(const char *name, const char *column);
extern char *wp_jsonb_text(JsonbValue *v);

#endif							/* WALPRESSURE_VALUES_H */

/*-------------------------------------------------------------------------
 *
 * rights.h
 *		What a sweep needs the role that runs it to be allowed, checked as
 *		that role when run_sweep is called and again before each step
 *		(rights.c).
 *
 * IDENTIFICATION
 *	  src/sweep/rights.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_RIGHTS_H
#define WALPRESSURE_RIGHTS_H

#include "sweep/request.h"

extern const char *wp_sweeper_hint(void);
extern void wp_rights_login(void);
extern void wp_rights_session_setting(const char *name, const char *value);
extern void wp_rights_server_setting(const char *name);
extern void wp_rights_reload(void);
extern void wp_rights_cap(void);
extern void wp_rights_checkpoint(void);
extern void wp_rights_prewarm(void);
extern void wp_rights_program(void);
extern void wp_rights_tables(const char *workload, Oid branches);
extern void wp_rights_recheck(const WpSweepRequest *req, int step);

#endif							/* WALPRESSURE_RIGHTS_H */

/*-------------------------------------------------------------------------
 *
 * fleet_sweep.h
 *		The sweep document of fleet_run(), checked and turned into the
 *		run_sweep call each server runs (fleet_sweep.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef WP_FLEET_SWEEP_H
#define WP_FLEET_SWEEP_H

#include "utils/jsonb.h"

extern char *wp_fleet_statement(Jsonb *sweep, int64 run_id);

#endif							/* WP_FLEET_SWEEP_H */

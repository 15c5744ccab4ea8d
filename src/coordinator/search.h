/*-------------------------------------------------------------------------
 *
 * search.h
 *		A search over a range of a number setting: its rounds chosen as
 *		they come in (search.c).
 *
 * IDENTIFICATION
 *	  src/coordinator/search.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_SEARCH_H
#define WALPRESSURE_SEARCH_H

#include "coordinator/step_measure.h"

extern const char *wp_search_run(int64 id, const WpStepPlan *plan, MemoryContext step_cxt);

#endif							/* WALPRESSURE_SEARCH_H */

/*-------------------------------------------------------------------------
 *
 * import_check.h
 *		import()'s check of a document (import_check.c).
 *
 * IDENTIFICATION
 *	  src/api/import_check.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_IMPORT_CHECK_H
#define WALPRESSURE_IMPORT_CHECK_H

#include "utils/jsonb.h"

extern void wp_import_check(Jsonb *doc);

#endif							/* WALPRESSURE_IMPORT_CHECK_H */

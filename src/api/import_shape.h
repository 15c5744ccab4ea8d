/*-------------------------------------------------------------------------
 *
 * import_shape.h
 *		The imported document's shape: export()'s object, and every text and
 *		number in it one a step can record (import_shape.c).
 *
 * IDENTIFICATION
 *	  src/api/import_shape.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_IMPORT_SHAPE_H
#define WALPRESSURE_IMPORT_SHAPE_H

#include "utils/jsonb.h"

extern bool wp_import_is_export(Jsonb *doc);
extern void wp_import_refuse(const char *path, const char *why);
extern void wp_import_scalars_check(Jsonb *doc);

#endif							/* WALPRESSURE_IMPORT_SHAPE_H */

/*-------------------------------------------------------------------------
 *
 * wal_reader.h
 *		Full-page image bytes, records and bytes of a stretch of WAL
 *		(wal_reader.c).
 *
 * IDENTIFICATION
 *	  src/system/wal_reader.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_WALREAD_H
#define WALPRESSURE_WALREAD_H

#include "access/xlogdefs.h"

extern int64 wp_wal_fpi_bytes(XLogRecPtr start, XLogRecPtr end, bool (*cancelled) (void),
							   int64 *records, int64 *fpis, int64 *rec_bytes);

#endif							/* WALPRESSURE_WALREAD_H */

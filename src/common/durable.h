/*-------------------------------------------------------------------------
 *
 * durable.h
 *		Whole files, read at once and written durably (durable.c).
 *
 * IDENTIFICATION
 *	  src/common/durable.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_DURABLE_H
#define WALPRESSURE_DURABLE_H

extern char *wp_read_whole(const char *path, Size *len);
extern void wp_write_whole(const char *path, const char *tmp, const char *data, Size len);

#endif							/* WALPRESSURE_DURABLE_H */

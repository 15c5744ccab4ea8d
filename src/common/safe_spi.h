/*-------------------------------------------------------------------------
 *
 * safe_spi.h
 *		SQL run through SPI with search_path pinned (safe_spi.c).
 *
 * IDENTIFICATION
 *	  src/common/safe_spi.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_SAFE_SPI_H
#define WALPRESSURE_SAFE_SPI_H

#include "nodes/execnodes.h"

extern int	wp_safe_path_begin(void);
extern void wp_safe_path_end(int nest);
extern void wp_spi_rows_out(ReturnSetInfo *rsinfo);

#endif							/* WALPRESSURE_SAFE_SPI_H */

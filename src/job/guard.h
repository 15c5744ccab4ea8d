/*-------------------------------------------------------------------------
 *
 * guard.h
 *		No DROP of the extension while a sweep runs (guard.c).
 *
 * IDENTIFICATION
 *	  src/job/guard.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_GUARD_H
#define WALPRESSURE_GUARD_H

extern void wp_guard_register(void);

#endif							/* WALPRESSURE_GUARD_H */

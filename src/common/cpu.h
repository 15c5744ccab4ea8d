/*-------------------------------------------------------------------------
 *
 * cpu.h
 *		CPU time of the server's processes and of a program it runs, read
 *		from /proc (cpu.c).
 *
 * IDENTIFICATION
 *	  src/common/cpu.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_CPU_H
#define WALPRESSURE_CPU_H

extern double wp_process_cpu_s(pid_t pid);
extern double wp_server_cpu_s(void);

#endif							/* WALPRESSURE_CPU_H */

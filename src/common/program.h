/*-------------------------------------------------------------------------
 *
 * program.h
 *		A program the server runs on a sweep's behalf (program.c).
 *
 * IDENTIFICATION
 *	  src/common/program.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_PROGRAM_H
#define WALPRESSURE_PROGRAM_H

extern pid_t wp_spawn(const char *const *argv, const char *const *envp, const char *dir);
extern bool wp_reap(pid_t pid, int *status);
extern bool wp_reap_cpu(pid_t pid, int *status, double *cpu_s);
extern void wp_kill_group(pid_t pid, int *status);
extern void wp_write_file(const char *path, const char *text);
extern char *wp_file_tail(const char *path, Size max);
extern void wp_remove_dir(const char *dir);
extern const char *wp_tmp_root(void);
extern void wp_program_dir(const char *program, char *dir);
extern void wp_remove_stale_program_dirs(void);

#endif							/* WALPRESSURE_PROGRAM_H */

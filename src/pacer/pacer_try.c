/*-------------------------------------------------------------------------
 *
 * pacer_try.c
 *		Try the paced disk by hand, without PostgreSQL: a program run with
 *		walpressure_pacer.so preloaded that does what the extension does
 *		(a shared state, attached through dlsym) and then what a WAL
 *		flusher does (write 8 kB, fdatasync), or measures what the preload
 *		costs a call when detached.  Not part of any build: see
 *		src/pacer/README.md.
 *
 *	pacer_try flush DIR SECONDS IOPS [PROCS [BURST]]
 *		PROCS processes (1) each write 8 kB and fdatasync a file of their
 *		own in DIR, in a loop, for SECONDS, the disk of DIR paced at IOPS
 *		(0: not paced) with a burst of BURST IOs (0); prints flushes/s, the
 *		latency's mean, p50, p99 and p99/p50, and the state's counters
 *	pacer_try passthrough N
 *		N pwrite calls of 8 bytes to /dev/null; prints ns per call
 *
 * IDENTIFICATION
 *	  src/pacer/pacer_try.c
 *
 *-------------------------------------------------------------------------
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pacer/pacer_state.h"

#define MAX_FLUSHES (1 << 20)

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int
cmp_double(const void *a, const void *b)
{
	double		x = *(const double *) a;
	double		y = *(const double *) b;

	return (x > y) - (x < y);
}

/* One process's loop: flushes until `end`, their latencies (s) into lat. */
static long
flush_loop(const char *dir, int p, double end, double *lat, long room)
{
	char		path[4096];
	char		page[8192];
	long		n = 0;
	int			fd;

	memset(page, 'w', sizeof(page));
	snprintf(path, sizeof(path), "%s/pacer_try.%d.%d", dir, (int) getpid(), p);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
	{
		perror(path);
		exit(1);
	}
	unlink(path);
	while (n < room)
	{
		double		t = now_s();

		if (t >= end)
			break;
		if (pwrite(fd, page, sizeof(page), (off_t) (n % 256) * sizeof(page)) != sizeof(page) ||
			fdatasync(fd) != 0)
		{
			perror("pwrite or fdatasync");
			exit(1);
		}
		lat[n++] = now_s() - t;
	}
	close(fd);
	return n;
}

static int
try_flush(const char *dir, double seconds, uint64_t iops, int procs, uint64_t burst)
{
	WpPacerAttachFn attach = (WpPacerAttachFn) dlsym(RTLD_DEFAULT, WP_PACER_ATTACH_SYMBOL);
	WpPacerVersionFn version = (WpPacerVersionFn) dlsym(RTLD_DEFAULT, WP_PACER_VERSION_SYMBOL);
	WpPacerState *st = mmap(NULL, sizeof(WpPacerState), PROT_READ | PROT_WRITE,
							MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	long	   *counts = mmap(NULL, sizeof(long) * procs, PROT_READ | PROT_WRITE,
							  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	long		room = MAX_FLUSHES / procs;
	double	   *lat = mmap(NULL, sizeof(double) * MAX_FLUSHES, PROT_READ | PROT_WRITE,
						   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	double	   *all;
	long		total = 0;
	double		sum = 0;
	double		start;
	double		elapsed;
	struct stat sb;

	if (attach == NULL)
	{
		fprintf(stderr, "walpressure_pacer.so is not preloaded (LD_PRELOAD)\n");
		return 1;
	}
	if (stat(dir, &sb) != 0)
	{
		perror(dir);
		return 1;
	}
	wp_pacer_init(st);
	if (attach(st) != 1)
	{
		fprintf(stderr, "the shim refused the state\n");
		return 1;
	}
	wp_pacer_configure(st, iops, WP_PACER_IOS_PER_FLUSH, 0, burst, (uint64_t) sb.st_dev);
	start = now_s();
	for (int p = 0; p < procs; p++)
	{
		if (fork() == 0)
		{
			counts[p] = flush_loop(dir, p, start + seconds, lat + p * room, room);
			_exit(0);
		}
	}
	while (wait(NULL) > 0)
		;
	elapsed = now_s() - start;

	all = malloc(sizeof(double) * MAX_FLUSHES);
	for (int p = 0; p < procs; p++)
	{
		memcpy(all + total, lat + p * room, sizeof(double) * counts[p]);
		total += counts[p];
	}
	for (long i = 0; i < total; i++)
		sum += all[i];
	qsort(all, total, sizeof(double), cmp_double);
	printf("%s; %s, %d process(es), %.1f s, %llu IOPS, burst %llu\n",
		   version ? version() : "?", dir, procs, elapsed, (unsigned long long) iops,
		   (unsigned long long) burst);
	if (total > 0)
		printf("flushes/s %.1f  mean %.3f ms  p50 %.3f ms  p99 %.3f ms  p99/p50 %.2f  max %.3f ms\n",
			   total / elapsed, sum / total * 1e3, all[total / 2] * 1e3,
			   all[(long) (total * 0.99)] * 1e3,
			   all[(long) (total * 0.99)] / all[total / 2], all[total - 1] * 1e3);
	printf("counters: ios %llu  flushes %llu  slept %.3f s  longest sleep %.3f ms  bounded %llu\n",
		   (unsigned long long) wp_pacer_get(&st->ios_charged),
		   (unsigned long long) wp_pacer_get(&st->flushes_paced),
		   wp_pacer_get(&st->sleep_ns) / 1e9,
		   wp_pacer_get(&st->max_wait_ns) / 1e6,
		   (unsigned long long) wp_pacer_get(&st->waits_bounded));
	return 0;
}

static int
try_passthrough(long n)
{
	int			fd = open("/dev/null", O_WRONLY);
	char		b[8] = "pacer";
	double		t = now_s();

	for (long i = 0; i < n; i++)
		if (pwrite(fd, b, sizeof(b), 0) != sizeof(b))
			return 1;
	printf("%.2f ns per pwrite (%s)\n", (now_s() - t) / n * 1e9,
		   dlsym(RTLD_DEFAULT, WP_PACER_ATTACH_SYMBOL) ? "preloaded, detached" : "not preloaded");
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc >= 5 && strcmp(argv[1], "flush") == 0)
		return try_flush(argv[2], atof(argv[3]), strtoull(argv[4], NULL, 10),
						 argc > 5 && atoi(argv[5]) > 0 ? atoi(argv[5]) : 1,
						 argc > 6 ? strtoull(argv[6], NULL, 10) : 0);
	if (argc == 3 && strcmp(argv[1], "passthrough") == 0)
		return try_passthrough(atol(argv[2]));
	fprintf(stderr, "usage: %s flush DIR SECONDS IOPS [PROCS [BURST]] | passthrough N\n", argv[0]);
	return 2;
}

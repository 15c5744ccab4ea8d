/*
 * test/unit/tap.h: what the unit tests share: TAP lines, a check of a
 * figure within a tolerance, and the plan and exit status at the end.
 * Included once by each test (its functions are static inline, so that a
 * test that does not use one builds without a warning).
 */
#ifndef WALPRESSURE_UNIT_TAP_H
#define WALPRESSURE_UNIT_TAP_H

#include <math.h>
#include <signal.h>
#include <stdio.h>

#include "miscadmin.h"

/*
 * What the code under test calls of a server's: CHECK_FOR_INTERRUPTS()
 * reads InterruptPending, never set here.
 */
volatile sig_atomic_t InterruptPending = 0;
void
ProcessInterrupts(void)
{
}

static int	tests = 0;
static int	failures = 0;

static inline void
ok(bool cond, const char *what)
{
	tests++;
	if (!cond)
		failures++;
	printf("%sok %d - %s\n", cond ? "" : "not ", tests, what);
}

static inline void
near(double got, double want, double tolerance, const char *what)
{
	bool		cond = fabs(got - want) <= tolerance;

	ok(cond, what);
	if (!cond)
		printf("#   got %g, want %g (within %g)\n", got, want, tolerance);
}

/* The plan, and the exit status: 0 when every test passed. */
static inline int
done_testing(void)
{
	printf("1..%d\n", tests);
	return failures == 0 ? 0 : 1;
}

#endif							/* WALPRESSURE_UNIT_TAP_H */

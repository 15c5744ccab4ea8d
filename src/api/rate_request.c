/*-------------------------------------------------------------------------
 *
 * rate_request.c
 *		run_sweep's open loop, checked as the caller: rate (transactions
 *		per second, pgbench's --rate: Poisson arrivals at that mean rate,
 *		each transaction's latency counted from its scheduled start) and
 *		latency_limit (pgbench's --latency-limit, in milliseconds), or the
 *		rate swept as a load parameter, run_sweep('rate', ARRAY[...]).
 *
 * Only the pgbench engine generates arrivals on a schedule: the backend
 * engine's clients send each transaction when the last one commits (a
 * closed loop), so a rate is refused with it rather than ignored.  A rate
 * is refused too when it is not a positive, finite number, or when it is
 * more than the sweep's clients could ever start: each client has one
 * transaction in flight at a time, and none takes less than a round trip
 * to the server.
 *
 * IDENTIFICATION
 *	  src/api/rate_request.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <limits.h>
#include <math.h>

#include "utils/builtins.h"
#include "utils/guc.h"

#include "api/arguments.h"
#include "api/rate_request.h"

/* A rate as a number of transactions per second, refused unless it is one. */
static double
wp_rate_number(const char *what, double rate, const char *text)
{
	if (isnan(rate) || isinf(rate) || rate <= 0 || rate > WP_RATE_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid value for %s: \"%s\"", what, text),
				 errdetail("A rate is the transactions per second the clients start, on a Poisson schedule (pgbench's --rate)."),
				 errhint("Give a positive number of transactions per second, at most %d, such as rate => 500.",
						 (int) WP_RATE_MAX)));
	return rate;
}

/* One value of a rate sweep, as text: a positive number of transactions/s. */
double
wp_check_rate_value(const char *value)
{
	double		d = 0;
	char	   *end = NULL;

	if (value != NULL)
		d = strtod(value, &end);
	if (value == NULL || end == value || end[strspn(end, " \t")] != '\0')
		d = NAN;
	return wp_rate_number("rate", d, value ? value : "");
}

/*
 * The most transactions per second `clients` clients can start: one in
 * flight each, none shorter than WP_TXN_FLOOR_US.
 */
static double
wp_clients_offer(int clients)
{
	return clients * (1e6 / WP_TXN_FLOOR_US);
}

/* A rate more than `clients` can offer is refused, with the clients it needs. */
static void
wp_check_offer(double rate, int clients)
{
	if (rate <= wp_clients_offer(clients))
		return;
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("rate %g is more than %d client%s can offer", rate, clients, clients == 1 ? "" : "s"),
			 errdetail("Each client has one transaction in flight at a time, and none takes less than %d microseconds (a round trip to the server), so %d client%s start at most %.0f transactions per second.",
					   WP_TXN_FLOOR_US, clients, clients == 1 ? "" : "s", wp_clients_offer(clients)),
			 errhint("Give clients => %d or more for this rate, or a lower rate.",
					 (int) ceil(rate / wp_clients_offer(1)))));
}

/*
 * rate and latency_limit (NULL: closed loop, no limit), and a rate sweep's
 * values (parsed in req->rates by run_sweep): each checked against the
 * engine and the clients of every step.
 */
void
wp_request_rate(FunctionCallInfo fcinfo, WpSweepRequest *req)
{
	bool		swept = strcmp(req->setting, "rate") == 0;
	int			fewest = strcmp(req->setting, "clients") == 0 ? INT_MAX : req->clients;

	if (PG_NARGS() > A_RATE && !PG_ARGISNULL(A_RATE))
	{
		double		r = PG_GETARG_FLOAT8(A_RATE);

		if (swept)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("rate is the swept setting; it cannot also be passed as rate")));
		req->rate = wp_rate_number("rate", r, psprintf("%g", r));
	}
	if (PG_NARGS() > A_LATENCY_LIMIT && !PG_ARGISNULL(A_LATENCY_LIMIT))
	{
		double		l = PG_GETARG_FLOAT8(A_LATENCY_LIMIT);

		if (isnan(l) || isinf(l) || l <= 0 || l > WP_LATENCY_LIMIT_MAX_MS)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("invalid value for latency_limit: \"%g\"", l),
					 errhint("Give a positive number of milliseconds, at most %d: transactions that take longer are counted late, and with a rate those that would start later than it are skipped.",
							 (int) WP_LATENCY_LIMIT_MAX_MS)));
		req->latency_limit_ms = l;
	}
	if (req->engine == WP_ENGINE_BACKEND && (req->rate > 0 || swept || req->latency_limit_ms > 0))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("%s is for the pgbench engine", req->latency_limit_ms > 0 && req->rate == 0 && !swept ?
						"latency_limit" : "rate"),
				 errdetail("The backend engine's clients send each transaction when the last one commits (a closed loop); only pgbench starts them on a schedule (--rate, --latency-limit)."),
				 errhint("Run the sweep with engine => 'pgbench', or leave rate and latency_limit out.")));

	/* what the clients of the step with the fewest can offer */
	if (strcmp(req->setting, "clients") == 0)
		for (int i = 0; i < req->nvals; i++)
			fewest = Min(fewest, req->ivals[i]);
	if (req->rate > 0)
		wp_check_offer(req->rate, fewest);
	if (swept)
		for (int i = 0; i < req->nvals; i++)
			wp_check_offer(req->rates[i], fewest);
}

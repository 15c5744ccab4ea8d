/*-------------------------------------------------------------------------
 *
 * search_request.c
 *		run_sweep's range, search and resolution: a search over a range of
 *		a number setting, checked once, here, as the caller, into the
 *		request.  The search chooses its values as its rounds come in, but
 *		only among those made here: the baseline (the setting's current
 *		value, which each pair's first round measures) and the range's
 *		values from its low end to its high end by the resolution, each
 *		parsed by the GUC machinery as one value of the setting, with the
 *		caller's right to set it, before any step runs.
 *
 * Refused here, before anything starts: a range with vals, a search or a
 * resolution without a range, a setting whose values have no order (a
 * word, a boolean, a configuration), an empty or reversed range, a range
 * beyond the setting's limits, and a resolution that is not a positive
 * step of the setting or makes more values than a sweep holds.
 *
 * IDENTIFICATION
 *	  src/api/search_request.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <float.h>
#include <math.h>

#include "utils/builtins.h"
#include "utils/guc.h"

#include "api/arguments.h"
#include "api/search_request.h"
#include "api/values.h"
#include "sweep/golden.h"

/* What kind of number the swept setting is. */
typedef enum WpNumKind
{
	WP_NUM_INT,					/* an integer setting, or the load */
	WP_NUM_REAL
} WpNumKind;

/* An optional text argument, NULL when not given (or before 0.7.0's SQL). */
static char *
wp_text_arg(FunctionCallInfo fcinfo, int arg)
{
	if (PG_NARGS() <= arg || PG_ARGISNULL(arg))
		return NULL;
	return text_to_cstring(PG_GETARG_TEXT_PP(arg));
}

/* Did the caller ask for a search (range, search or resolution)? */
bool
wp_search_asked(FunctionCallInfo fcinfo)
{
	return wp_text_arg(fcinfo, A_RANGE) != NULL || wp_text_arg(fcinfo, A_SEARCH) != NULL ||
		(PG_NARGS() > A_RESOLUTION && !PG_ARGISNULL(A_RESOLUTION));
}

/*
 * Can a search order the values of the swept setting?  What kind of number
 * they are, or an error that says why not.
 */
static WpNumKind
wp_search_setting(const WpSweepRequest *req)
{
	char	   *vartype;

	if (req->kind == WP_PARAM_CONFIG)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("a search varies one number setting; settings is a sweep of configurations"),
				 errdetail("Configurations have no order a search could follow."),
				 errhint("Give the configurations with vals, or search one setting with range.")));
	if (strcmp(req->setting, "iops_cap") == 0)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("a search over iops_cap would end at the range's high end"),
				 errdetail("A higher cap only lets the disk do more: tps does not peak inside a range of caps, it grows to where something else binds."),
				 errhint("Measure the caps you consider with vals, or read what a sweep predicts at another cap with walpressure.predict(sweep_id, iops_cap => N).")));
	if (strcmp(req->setting, "rate") == 0)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("a search over rate would end at the range's high end"),
				 errdetail("In an open loop the tps is the rate asked until the server cannot keep it: tps does not peak inside a range of rates."),
				 errhint("Sweep the rates you consider with vals, like run_sweep('rate', ARRAY[100, 400, 1600]), and read where each is kept.")));
	if (strcmp(req->setting, "disk") == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("disk has no order a search could follow"),
				 errdetail("Its values are disk models (paced, throttle), not numbers."),
				 errhint("Give the models to compare with vals, like vals => ARRAY['paced', 'throttle'].")));
	if (req->kind == WP_PARAM_LOAD)
		return WP_NUM_INT;
	vartype = wp_pg_settings(req->setting, "vartype");
	if (vartype != NULL && strcmp(vartype, "integer") == 0)
		return WP_NUM_INT;
	if (vartype != NULL && strcmp(vartype, "real") == 0)
		return WP_NUM_REAL;
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("%s has no order a search could follow", req->setting),
			 errdetail("Its values are %s, not numbers: no value lies between two others.",
					   vartype != NULL && strcmp(vartype, "enum") == 0 ?
					   psprintf("names (%s)", wp_pg_settings(req->setting, "array_to_string(enumvals, ', ')")) :
					   vartype != NULL && strcmp(vartype, "bool") == 0 ? "on and off" : "words"),
			 errhint("Give the values to compare with vals, like vals => ARRAY['on', 'off'].")));
	return WP_NUM_INT;			/* not reached */
}

/*
 * The lowest and highest value the setting takes, in its base unit (what a
 * bare number of it means), and that unit in words for a message.
 */
static void
wp_search_limits(const WpSweepRequest *req, double *min, double *max, const char **unit)
{
	char	   *u;

	*unit = "";
	if (strcmp(req->setting, "round_trip_us") == 0)
	{
		*min = 0;
		*max = WP_ROUND_TRIP_MAX;
		*unit = " microseconds";
		return;
	}
	if (req->kind == WP_PARAM_LOAD)
	{
		*min = 1;
		*max = WP_LOAD_MAX;
		return;
	}
	*min = strtod(wp_pg_settings(req->setting, "min_val"), NULL);
	*max = strtod(wp_pg_settings(req->setting, "max_val"), NULL);
	u = wp_pg_settings(req->setting, "unit");
	if (u != NULL)
		*unit = psprintf(" (%s)", u);
	else if (strcmp(req->setting, "commit_delay") == 0)
		*unit = " microseconds";
}

/*
 * One end of the range, or the resolution: a number of the setting, units
 * allowed where the setting has one ('50ms', '1s' of wal_writer_delay), as
 * the GUC machinery reads it; for the load a whole number.
 */
static double
wp_search_number(const WpSweepRequest *req, WpNumKind num, const char *text, const char *what)
{
	const char *hint = NULL;
	int			i;
	double		x;
	bool		ok;

	if (req->kind == WP_PARAM_LOAD)
		ok = parse_int(text, &i, 0, &hint) && (x = i, true);
	else if (num == WP_NUM_INT)
		ok = parse_int(text, &i, GetConfigOptionFlags(req->setting, false), &hint) && (x = i, true);
	else
		ok = parse_real(text, &x, GetConfigOptionFlags(req->setting, false), &hint) && !isnan(x);
	if (!ok)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid %s for %s: \"%s\"", what, req->setting, text),
				 errdetail("A search's range and resolution are values of the setting it varies."),
				 hint ? errhint("%s", hint) :
				 errhint("Give a number%s, like range => '[0, 2000]'.",
						 req->kind == WP_PARAM_LOAD ? "" : " (with a unit where the setting has one)")));
	return x;
}

/*
 * The range: '[low, high]', each end a value of the setting; not empty,
 * not reversed, within the setting's limits.
 */
static void
wp_search_range(const WpSweepRequest *req, WpNumKind num, const char *range,
				double *lo, double *hi)
{
	const char *p = range + strspn(range, " \t");
	const char *comma = strchr(range, ',');
	const char *end = range + strlen(range);
	double		min,
				max;
	const char *unit;

	while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	if (*p != '[' || end - p < 2 || end[-1] != ']' || comma == NULL || comma < p ||
		strchr(comma + 1, ',') != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("range must be two values of %s in brackets, like '[0, 2000]', not \"%s\"",
						req->setting, range),
				 errhint("Both ends are values the search may choose.")));
	*lo = wp_search_number(req, num, pnstrdup(p + 1, comma - p - 1), "low end of the range");
	*hi = wp_search_number(req, num, pnstrdup(comma + 1, end - comma - 2), "high end of the range");
	if (*lo == *hi)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("range %s of %s is empty", range, req->setting),
				 errdetail("Its low end (%g) must be below its high end (%g).", *lo, *hi),
				 errhint("To measure one value, give vals => ARRAY['%g'].", *lo)));
	if (*lo > *hi)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("range %s of %s is reversed", range, req->setting),
				 errdetail("Its low end (%g) must be below its high end (%g).", *lo, *hi),
				 errhint("Give the lower value first: range => '[%g, %g]'.", *hi, *lo)));
	wp_search_limits(req, &min, &max, &unit);
	if (*lo < min || *hi > max)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("range %s is outside the limits of %s", range, req->setting),
				 errdetail("%s takes %g to %g%s.", req->setting, min, max, unit),
				 errhint("Give a range within them, like '[%g, %g]'.", Max(*lo, min), Min(*hi, max))));
}

/* A number of the setting as text, as the server holds it. */
static char *
wp_search_text(WpNumKind num, double x)
{
	return num == WP_NUM_INT ? psprintf("%.0f", x) : psprintf("%.6g", x);
}

/*
 * The resolution: the step between two values the search may choose; by
 * default a twentieth of the range (5%), at least the setting's own step
 * (1 for an integer setting, in its base unit).
 */
static double
wp_search_resolution(const WpSweepRequest *req, WpNumKind num, const char *text,
					 double lo, double hi)
{
	double		res;
	double		n;

	if (text == NULL)
	{
		res = (hi - lo) / 20.0;
		return num == WP_NUM_INT ? Max(1.0, rint(res)) : res;
	}
	res = wp_search_number(req, num, text, "resolution");
	if (!(res > 0))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("resolution must be positive, not \"%s\"", text),
				 errhint("It is the step between two values the search may choose, like resolution => '%g'.",
						 num == WP_NUM_INT ? Max(1.0, rint((hi - lo) / 20.0)) : (hi - lo) / 20.0)));
	if (res > hi - lo)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("resolution %s is wider than the range [%g, %g]", text, lo, hi),
				 errhint("Give a resolution of at most %g.", hi - lo)));
	/* counted in double, and bounded before anything is made of it */
	n = ceil((hi - lo) / res - 1e-9) + 1;
	if (!(n <= WP_MAX_VALUES - 1))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("resolution %s makes %.0f values of [%s, %s]; a search takes at most %d",
						text, n, wp_search_text(num, lo), wp_search_text(num, hi), WP_MAX_VALUES - 1),
				 errdetail("The search chooses among the range's values by the resolution, the baseline besides."),
				 errhint("Give a resolution of at least %s, or a narrower range.",
						 wp_search_text(num, num == WP_NUM_INT ? ceil((hi - lo) / (WP_MAX_VALUES - 2)) :
										(hi - lo) / (WP_MAX_VALUES - 2) * (1 + 2e-6)))));
	return res;
}

/*
 * The search's baseline: the setting's value a new session of the caller
 * gets (the reset value: what the sweep's row records as current), or for
 * the load what a sweep runs when the load is not varied (the clients
 * argument, a batch of 1, no round trip).
 */
static char *
wp_search_baseline(const WpSweepRequest *req)
{
	if (strcmp(req->setting, "clients") == 0)
		return psprintf("%d", req->clients);
	if (strcmp(req->setting, "batch_size") == 0)
		return pstrdup("1");
	if (strcmp(req->setting, "round_trip_us") == 0)
		return pstrdup("0");
	return pstrdup(GetConfigOptionResetString(req->setting));
}

/*
 * run_sweep with range: the request's values are the baseline and the
 * range's values by the resolution, each checked as a value of the swept
 * setting (wp_check_swept_value).  Returns the most clients a value runs
 * (0 when the load's clients are not varied).
 */
int64
wp_request_search(FunctionCallInfo fcinfo, WpSweepRequest *req)
{
	char	   *range = wp_text_arg(fcinfo, A_RANGE);
	char	   *search = wp_text_arg(fcinfo, A_SEARCH);
	char	   *resolution = wp_any_as_text(fcinfo, A_RESOLUTION, "resolution");
	WpNumKind	num;
	double		lo,
				hi,
				res,
				base;
	int64		max_clients = 0;
	int			ival;
	int			n;
	char	   *prev = NULL;

	if (range == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s needs a range to search", search != NULL ? "search" : "resolution"),
				 errhint("Give range => '[0, 2000]' to search it, or the values to run with vals.")));
	if (!PG_ARGISNULL(A_VALS))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("give vals or range, not both"),
				 errdetail("vals runs each value it lists in every round; range lets a search choose the values."),
				 errhint("Leave vals out to search the range, or range out to run the values.")));
	if (search != NULL && strcmp(search, "auto") != 0 && strcmp(search, "golden") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("unknown search \"%s\"", search),
				 errhint("Searches: golden (golden-section: a pair of values at a time, the bracket around the peak shrunk to 0.618 after each pair), auto (the search walpressure picks: golden).")));
	num = wp_search_setting(req);
	wp_search_range(req, num, range, &lo, &hi);
	res = wp_search_resolution(req, num, resolution, lo, hi);

	req->search = WP_SEARCH_GOLDEN;
	strlcpy(req->search_low, wp_search_text(num, lo), WP_SEARCH_TEXT);
	strlcpy(req->search_high, wp_search_text(num, hi), WP_SEARCH_TEXT);
	strlcpy(req->search_resolution, wp_search_text(num, res), WP_SEARCH_TEXT);

	/* the baseline first: each pair's first round measures it */
	strlcpy(req->vals[0], wp_check_swept_value(req, wp_search_baseline(req), &ival), WP_VALUE_MAX);
	req->ivals[0] = ival;
	max_clients = ival;
	base = wp_search_number(req, num, req->vals[0], "current value");
	req->nvals = 1;

	/*
	 * then the range's values, the high end the last even when the step
	 * falls short of it: as many as wp_search_resolution counted (at most
	 * WP_MAX_VALUES - 1, so that the baseline and they fit in vals), each
	 * one apart from the one before it as the server holds them
	 */
	n = (int) (ceil((hi - lo) / res - 1e-9) + 1);
	Assert(n >= 2 && n <= WP_MAX_VALUES - 1);
	for (int i = 0; i < n && i < WP_MAX_VALUES - 1 && req->nvals < WP_MAX_VALUES; i++)
	{
		double		x = i == n - 1 ? hi : Min(lo + i * res, hi);
		char	   *v = wp_search_text(num, x);

		if (prev != NULL && strcmp(v, prev) == 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("resolution %s is finer than the values of %s near %s",
							req->search_resolution, req->setting, v),
					 errdetail("Two of the range's values would be the same value of the setting."),
					 errhint("Give a coarser resolution.")));
		prev = v;
		if (fabs(x - base) <= 1e-9 * Max(1.0, fabs(x)))
			req->search_pos[i] = 0;
		else
		{
			strlcpy(req->vals[req->nvals], wp_check_swept_value(req, v, &ival), WP_VALUE_MAX);
			req->ivals[req->nvals] = ival;
			max_clients = Max(max_clients, ival);
			req->search_pos[i] = req->nvals++;
		}
		req->search_n = i + 1;
	}
	return strcmp(req->setting, "clients") == 0 ? max_clients : 0;
}

/*
 * The rounds of a search, after run_sweep's repeats, budget and rate are
 * read: a pair of values gets at least repeats rounds (2 at the least: one
 * round has no interval) and at most twice that.  Its steps are bounded: by
 * the budget of time when the call gives one, else by as many steps as the
 * range has values (what one round of the grid of them would cost), and
 * never fewer than two pairs at their fewest rounds.  No auto repeats: the
 * search adds its own rounds.  Not in an open loop: the search follows tps,
 * which a rate holds to what was asked.
 */
void
wp_request_search_rounds(WpSweepRequest *req)
{
	int			max_steps;

	if (req->rate > 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("a search cannot run at a rate"),
				 errdetail("A search follows the most tps, and in an open loop the tps is the rate asked while the server keeps it: the pairs would differ by noise only."),
				 errhint("Give the values to compare with vals, and read them by their latency: best does so in an open loop.")));
	req->repeats = Max(req->repeats, 2);
	req->max_repeats = Min(2 * req->repeats, WP_REPEATS_MAX);
	req->auto_repeats = false;
	req->search_max_steps = req->budget_s > 0 ? 0 :
		Max(req->search_n, 2 * wp_golden_first_steps(req));
	max_steps = wp_golden_most_steps(req);
	if (max_steps > WP_STEPS_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("a search with repeats => %d can take %d steps, more than the %d a sweep may have",
						req->repeats, max_steps, WP_STEPS_MAX),
				 errhint("repeats is the fewest rounds each pair of values gets; give fewer.")));
}

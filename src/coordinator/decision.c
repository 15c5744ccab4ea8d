/*-------------------------------------------------------------------------
 *
 * decision.c
 *		repeats => 'auto' or a budget: after each round from the fewest
 *		on, one more round or the end, and why.
 *
 * IDENTIFICATION
 *	  src/coordinator/decision.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "utils/builtins.h"

#include "coordinator/decision.h"
#include "coordinator/rows.h"

/*
 * repeats => 'auto' or a budget: after each round from the fewest on, is
 * the answer clear?  false to add a round (steps_total grows by one round),
 * true to stop, with why in sweeps.rounds_stop: the answer decided (SQL
 * function _rounds_decided, from results as best reads it), or the most
 * rounds, or the budget.  `round_s`: what a round took on average; `elapsed_s`: the
 * rounds so far.
 */
bool
wp_results_auto_decide(int64 sweep_id, const WpSweepRequest *req, int rounds,
					   double round_s, double elapsed_s)
{
	const char *why = NULL;
	bool		isnull;
	Datum		d;

	wp_owner_begin();
	if (SPI_execute_with_args("SELECT walpressure._rounds_decided($1)",
							  1, (Oid[]) {INT8OID}, (Datum[]) {Int64GetDatum(sweep_id)}, NULL, true, 1) != SPI_OK_SELECT ||
		SPI_processed != 1)
		elog(ERROR, "could not read the results of sweep " INT64_FORMAT, sweep_id);
	d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
	if (!isnull)
		why = psprintf("%s, after %d rounds", TextDatumGetCString(d), rounds);
	else if (rounds >= req->max_repeats)
		why = psprintf("undecided after %d rounds, the most %s", rounds,
					   req->budget_s > 0 ? "a sweep may have" : "without a budget");
	else if (req->budget_s > 0 && elapsed_s + round_s > req->budget_s)
		why = psprintf("undecided after %d rounds: another (about %.0f s) would pass the budget of %.0f s",
					   rounds, round_s, req->budget_s);
	if (SPI_execute_with_args(why ?
							  "UPDATE walpressure.sweeps SET rounds_stop = $2 WHERE sweep_id = $1" :
							  "UPDATE walpressure.sweeps SET steps_total = steps_total + $3 WHERE sweep_id = $1",
							  3, (Oid[]) {INT8OID, TEXTOID, INT4OID},
							  (Datum[]) {Int64GetDatum(sweep_id), why ? CStringGetTextDatum(why) : (Datum) 0,
							  Int32GetDatum(req->nvals)},
							  why ? "   " : " n ", false, 0) != SPI_OK_UPDATE)
		elog(ERROR, "could not update sweep " INT64_FORMAT, sweep_id);
	wp_owner_end();
	return why != NULL;
}


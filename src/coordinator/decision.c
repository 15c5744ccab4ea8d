/*-------------------------------------------------------------------------
 *
 * decision.c
 *		What the coordinator asks the one rule (sql/objects/decision/): with
 *		repeats => 'auto' or a budget, after each round from the fewest on,
 *		one more round or the end, and why; in a search, which of a pair
 *		is better, and the value the search found.
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
#include "utils/memutils.h"

#include "coordinator/decision.h"
#include "coordinator/row_writer.h"

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


/*
 * The rule on value a_pos against value b_pos (positions in vals, from 0)
 * over the rounds that measured both: effects(sweep, b) for a, tps.
 */
void
wp_pair_decide(int64 sweep_id, int a_pos, int b_pos, WpPairVerdict *v)
{
	MemoryContext caller = CurrentMemoryContext;
	bool		isnull;
	HeapTuple	t;
	TupleDesc	d;

	memset(v, 0, sizeof(WpPairVerdict));
	v->rule.verdict = "undecided";
	wp_owner_begin();
	if (SPI_execute_with_args("SELECT rounds, verdict, ratio::float8, rounds_needed, detail "
							  "FROM walpressure.effects($1, $3) WHERE value_pos = $2 AND metric = 'tps'",
							  3, (Oid[]) {INT8OID, INT4OID, INT4OID},
							  (Datum[]) {Int64GetDatum(sweep_id), Int32GetDatum(a_pos + 1), Int32GetDatum(b_pos + 1)},
							  NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not read the effects of sweep " INT64_FORMAT, sweep_id);
	if (SPI_processed == 1)
	{
		t = SPI_tuptable->vals[0];
		d = SPI_tuptable->tupdesc;
		v->rounds = DatumGetInt32(SPI_getbinval(t, d, 1, &isnull));
		v->rule.verdict = MemoryContextStrdup(caller, SPI_getvalue(t, d, 2));
		v->rule.ratio = DatumGetFloat8(SPI_getbinval(t, d, 3, &isnull));
		if (isnull)
			v->rule.ratio = 0;
		v->rule.rounds_needed = DatumGetInt32(SPI_getbinval(t, d, 4, &isnull));
		if (isnull)
			v->rule.rounds_needed = 0;
		v->detail = MemoryContextStrdup(caller, SPI_getvalue(t, d, 5));
	}
	wp_owner_end();
	MemoryContextSwitchTo(caller);
}

/*
 * The value a search found, pos in vals (from 0; -1: none, then _top's, the
 * most tps against the baseline in the same rounds), in words with its
 * effect against the baseline.  NULL when no step counts.
 */
char *
wp_sweep_found(int64 sweep_id, const WpSweepRequest *req, int pos)
{
	MemoryContext caller = CurrentMemoryContext;
	char	   *found = NULL;

	wp_owner_begin();
	if (SPI_execute_with_args("SELECT t.pos, e.ratio, e.ratio_ci_low, e.ratio_ci_high, e.rounds, e.verdict "
							  "FROM coalesce($2, walpressure._top($1)) AS t(pos) "
							  "LEFT JOIN walpressure.effects($1) e ON e.value_pos = t.pos AND e.metric = 'tps'",
							  2, (Oid[]) {INT8OID, INT4OID},
							  (Datum[]) {Int64GetDatum(sweep_id), Int32GetDatum(pos + 1)},
							  pos >= 0 ? "  " : " n", true, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not read the results of sweep " INT64_FORMAT, sweep_id);
	if (SPI_processed == 1)
	{
		HeapTuple	t = SPI_tuptable->vals[0];
		TupleDesc	d = SPI_tuptable->tupdesc;
		bool		isnull;
		Datum		at = SPI_getbinval(t, d, 1, &isnull);

		if (!isnull && DatumGetInt32(at) >= 1 && DatumGetInt32(at) <= req->nvals)
		{
			const char *value = req->vals[DatumGetInt32(at) - 1];
			char	   *ratio = SPI_getvalue(t, d, 2);

			if (DatumGetInt32(at) == 1)
				found = psprintf("%s, the current value", value);
			else if (ratio == NULL)
				found = psprintf("%s (no round measured it and the baseline %s)", value, req->vals[0]);
			else if (SPI_getvalue(t, d, 3) == NULL)
				found = psprintf("%s: %sx the baseline %s (%s round, no interval)", value, ratio,
								 req->vals[0], SPI_getvalue(t, d, 5));
			else
				found = psprintf("%s: %sx the baseline %s (95%% interval %s-%s, %s paired rounds: %s)",
								 value, ratio, req->vals[0], SPI_getvalue(t, d, 3), SPI_getvalue(t, d, 4),
								 SPI_getvalue(t, d, 5), SPI_getvalue(t, d, 6));
			found = MemoryContextStrdup(caller, found);
		}
	}
	wp_owner_end();
	MemoryContextSwitchTo(caller);
	return found;
}

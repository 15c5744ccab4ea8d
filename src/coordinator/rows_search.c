/*-------------------------------------------------------------------------
 *
 * rows_search.c
 *		A search's record, written as it goes: each round's row in
 *		walpressure.search_rounds (the pair it compared, the values the
 *		peak was searched in, what it ran and why, the rule's verdict after
 *		it and what the search did), the sweep's steps_total as rounds are
 *		added, and why the search stopped and what it found.
 *
 * IDENTIFICATION
 *	  src/coordinator/rows_search.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "utils/array.h"
#include "utils/builtins.h"

#include "coordinator/row_writer.h"
#include "coordinator/rows_search.h"

/*
 * Round r's row, and the steps the search plans so far; one transaction,
 * after the round's steps are recorded.
 */
void
wp_search_round_insert(int64 sweep_id, const WpSearchRound *r, int steps_total)
{
	MemoryContext caller = CurrentMemoryContext;
	WpRow		row = {0};
	Datum		vals[3];

	for (int i = 0; i < r->nvals; i++)
		vals[i] = CStringGetTextDatum(r->vals[i]);
	wp_col(&row, "sweep_id", INT8OID, Int64GetDatum(sweep_id), false);
	wp_col(&row, "round", INT4OID, Int32GetDatum(r->round), false);
	wp_col(&row, "pair", INT4OID, Int32GetDatum(r->pair), false);
	wp_col(&row, "low", TEXTOID, CStringGetTextDatum(r->low), false);
	wp_col(&row, "high", TEXTOID, CStringGetTextDatum(r->high), false);
	wp_col(&row, "vals", TEXTARRAYOID,
		   PointerGetDatum(construct_array(vals, r->nvals, TEXTOID, -1, false, TYPALIGN_INT)), false);
	wp_col(&row, "why", TEXTOID, CStringGetTextDatum(r->why), false);
	wp_col(&row, "verdict", TEXTOID, r->verdict ? CStringGetTextDatum(r->verdict) : (Datum) 0,
		   r->verdict == NULL);
	wp_col(&row, "decision", TEXTOID, r->decision ? CStringGetTextDatum(r->decision) : (Datum) 0,
		   r->decision == NULL);
	wp_owner_begin();
	wp_row_insert(&row, "walpressure.search_rounds", NULL);
	if (SPI_execute_with_args("UPDATE walpressure.sweeps SET steps_total = $2 WHERE sweep_id = $1",
							  2, (Oid[]) {INT8OID, INT4OID},
							  (Datum[]) {Int64GetDatum(sweep_id), Int32GetDatum(steps_total)},
							  NULL, false, 0) != SPI_OK_UPDATE)
		elog(ERROR, "could not update sweep " INT64_FORMAT, sweep_id);
	wp_owner_end();
	MemoryContextSwitchTo(caller);
}

/*
 * Why the search stopped, and what it found (pos in vals, from 0; -1:
 * nothing), in the sweep's row: search_found is what best starts from.
 */
void
wp_search_stop_record(int64 sweep_id, const char *why, int pos)
{
	MemoryContext caller = CurrentMemoryContext;

	wp_owner_begin();
	if (SPI_execute_with_args("UPDATE walpressure.sweeps SET search_stop = $2, search_found = $3 WHERE sweep_id = $1",
							  3, (Oid[]) {INT8OID, TEXTOID, INT4OID},
							  (Datum[]) {Int64GetDatum(sweep_id), CStringGetTextDatum(why), Int32GetDatum(pos + 1)},
							  pos >= 0 ? "   " : "  n", false, 0) != SPI_OK_UPDATE)
		elog(ERROR, "could not update sweep " INT64_FORMAT, sweep_id);
	wp_owner_end();
	MemoryContextSwitchTo(caller);
}

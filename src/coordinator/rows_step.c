/*-------------------------------------------------------------------------
 *
 * rows_step.c
 *		A step's rows, in a transaction of their own when the step ends:
 *		walpressure.steps (every figure the step measured), its standbys,
 *		its seconds and the load's statements.
 *
 * IDENTIFICATION
 *	  src/coordinator/rows_step.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "utils/builtins.h"
#include "utils/pg_lsn.h"
#include "utils/timestamp.h"

#include "coordinator/row_writer.h"
#include "coordinator/rows_step.h"
#include "system/pgss.h"
#include "system/walsenders.h"

/* The step's own columns in walpressure.steps. */
static void
wp_step_columns(WpRow *row, int64 sweep_id, const WpSweepRequest *req, int step, int pos,
				int repeat, const WpLoadSpec *spec, const WpStepResult *r)
{
	bool		batch = req->workload == WP_WORKLOAD_BATCH_INSERT;
	bool		rows = batch || req->workload == WP_WORKLOAD_INSERT_ONLY;

	wp_col(row, "sweep_id", INT8OID, Int64GetDatum(sweep_id), false);
	wp_col(row, "step", INT4OID, Int32GetDatum(step), false);
	wp_col(row, "value", TEXTOID, CStringGetTextDatum(req->vals[pos]), false);
	wp_col(row, "value_pos", INT4OID, Int32GetDatum(pos + 1), false);
	wp_col(row, "repeat", INT4OID, Int32GetDatum(repeat), false);
	wp_col(row, "clients", INT4OID, Int32GetDatum(spec->clients), false);
	wp_col(row, "batch_size", INT4OID, Int32GetDatum(spec->batch_size), !batch);
	wp_col(row, "round_trip_us", INT4OID, Int32GetDatum(spec->round_trip_us), false);
	wp_col(row, "started_at", TIMESTAMPTZOID, TimestampTzGetDatum(r->started_at), false);
	wp_col_fig(row, "seconds", r->seconds);
	wp_col(row, "transactions", INT8OID, Int64GetDatum(r->transactions), false);
	wp_col(row, "retries", INT8OID, Int64GetDatum(r->retries), false);
	wp_col_fig(row, "tps", r->tps);
	wp_col(row, "rows_per_s", FLOAT8OID,
		   Float8GetDatum(r->tps * (batch ? spec->batch_size : 1)), !rows);
	wp_col_fig(row, "latency_avg_ms", r->transactions > 0 ? r->latency_avg_ms : -1);
	wp_col_fig(row, "latency_stddev_ms", r->transactions > 0 ? r->latency_stddev_ms : -1);
	wp_col_fig(row, "latency_p50_ms", r->latency_p50_ms);
	wp_col_fig(row, "latency_p95_ms", r->latency_p95_ms);
	wp_col_fig(row, "latency_p99_ms", r->latency_p99_ms);
	wp_col(row, "commits", INT8OID, Int64GetDatum(r->commits), false);
	wp_col(row, "leaders", INT8OID, Int64GetDatum(r->leaders), false);
	/* figures from statistics reset in the window are void: NULL */
	wp_col(row, "wal_fsyncs", INT8OID, Int64GetDatum(r->wal_fsyncs), r->wal_reset);
	wp_col_fig(row, "commits_per_fsync",
			   r->wal_fsyncs > 0 && !r->wal_reset ? (double) r->commits / r->wal_fsyncs : -1);
	wp_col_fig(row, "wal_fsyncs_per_s", r->wal_reset ? -1 : r->span_s > 0 ? r->wal_fsyncs / r->span_s : 0);
	wp_col_fig(row, "fsync_avg_ms", r->fsync_avg_ms);
	wp_col_fig(row, "fsync_p50_ms", r->fsync_p50_ms);
	wp_col_fig(row, "fsync_p99_ms", r->fsync_p99_ms);
	wp_col(row, "wal_bytes", INT8OID, Int64GetDatum(r->wal_bytes), r->wal_reset);
	wp_col(row, "wal_records", INT8OID, Int64GetDatum(r->wal_records), r->wal_reset);
	wp_col(row, "wal_fpi", INT8OID, Int64GetDatum(r->wal_fpi), r->wal_reset);
	wp_col_fig(row, "fpi_pct", r->wal_records > 0 && !r->wal_reset ? 100.0 * r->wal_fpi / r->wal_records : -1);
	wp_col(row, "wal_buffers_full", INT8OID, Int64GetDatum(r->wal_buffers_full), r->wal_reset);
	wp_col(row, "checkpoints_timed", INT8OID, Int64GetDatum(r->ckpt_timed), r->ckpt_reset);
	wp_col(row, "checkpoints_requested", INT8OID, Int64GetDatum(r->ckpt_requested), r->ckpt_reset);
	wp_col(row, "server_seconds", FLOAT8OID, Float8GetDatum(r->span_s), false);
	wp_col(row, "iops_cap", INT4OID, Int32GetDatum((int32) r->iops_cap), r->iops_cap <= 0);
	if (wp_schema_has(700))
		wp_col(row, "disk", TEXTOID, r->disk ? CStringGetTextDatum(r->disk) : (Datum) 0, r->disk == NULL);
	wp_col_fig(row, "read_iops", r->read_iops);
	wp_col_fig(row, "write_iops", r->write_iops);
	wp_col(row, "checkpoint_write_ms", FLOAT8OID, Float8GetDatum(r->ckpt_write_ms), r->ckpt_reset);
	wp_col(row, "checkpoint_sync_ms", FLOAT8OID, Float8GetDatum(r->ckpt_sync_ms), r->ckpt_reset);
	wp_col(row, "data_loss", TEXTOID,
		   r->data_loss ? CStringGetTextDatum(r->data_loss) : (Datum) 0, r->data_loss == NULL);
	wp_col(row, "discarded", TEXTOID,
		   r->discarded ? CStringGetTextDatum(r->discarded) : (Datum) 0, r->discarded == NULL);
	wp_col(row, "setup_s", FLOAT8OID, Float8GetDatum(r->setup_s), false);
	wp_col_fig(row, "client_cpu_s", r->client_cpu_s);
	wp_col_fig(row, "server_cpu_s", r->server_cpu_s);
	wp_col(row, "wal_lsn_start", PG_LSNOID, LSNGetDatum(r->lsn_start),
		   XLogRecPtrIsInvalid(r->lsn_start));
	wp_col(row, "wal_lsn_end", PG_LSNOID, LSNGetDatum(r->lsn_end),
		   XLogRecPtrIsInvalid(r->lsn_end));

}

/* 0.7.0: the tail latency, and the open loop's figures (NULL when closed). */
static void
wp_step_columns_open_loop(WpRow *row, const WpStepResult *r)
{
	bool		closed = r->rate <= 0;

	wp_col_fig(row, "latency_p999_ms", r->latency_p999_ms);
	wp_col(row, "rate", FLOAT8OID, Float8GetDatum(r->rate), closed);
	wp_col_fig(row, "rate_achieved", closed ? -1 : r->rate_achieved);
	wp_col(row, "rate_sustained", BOOLOID, BoolGetDatum(r->rate_sustained), closed);
	wp_col_fig(row, "lag_avg_ms", r->lag_avg_ms);
	wp_col_fig(row, "lag_p50_ms", r->lag_p50_ms);
	wp_col_fig(row, "lag_p99_ms", r->lag_p99_ms);
	wp_col(row, "transactions_late", INT8OID, Int64GetDatum(r->txns_late), r->txns_late < 0);
	wp_col(row, "transactions_skipped", INT8OID, Int64GetDatum(r->txns_skipped), r->txns_skipped < 0);
}

/*
 * The columns later versions added (0.4.0: images, buffers; 0.6.0: standbys;
 * 0.7.0: the commits' time).
 */
static void
wp_step_columns_newer(WpRow *row, const WpStepResult *r)
{
	if (wp_schema_has(400))
	{
		wp_col(row, "fpi_bytes", INT8OID, Int64GetDatum(r->fpi_bytes), r->fpi_bytes < 0);
		wp_col(row, "buffers_checkpoint", INT8OID, Int64GetDatum(r->buf_ckpt), r->buf_reset);
		wp_col(row, "buffers_clean", INT8OID, Int64GetDatum(r->buf_clean), r->buf_reset);
		wp_col(row, "buffers_backend", INT8OID, Int64GetDatum(r->buf_backend), r->buf_reset);
		wp_col(row, "buffers_backend_fsync", INT8OID, Int64GetDatum(r->buf_backend_fsync), r->buf_reset);
	}
	if (wp_schema_has(600))
	{
		wp_col_fig(row, "syncrep_wait_pct", r->syncrep_wait_pct);
		wp_col_fig(row, "syncrep_wait_ms", r->syncrep_wait_ms);
		wp_col_fig(row, "standby_wal_mb_per_s", r->standby_wal_mb_per_s);
		wp_col_fig(row, "standby_wal_writes_per_s", r->standby_wal_writes_per_s);
		wp_col_fig(row, "standby_wal_fsyncs_per_s", r->standby_wal_fsyncs_per_s);
		wp_col_fig(row, "standby_write_iops", r->standby_write_iops);
		wp_col(row, "standby_source", TEXTOID,
			   r->standby_source ? CStringGetTextDatum(r->standby_source) : (Datum) 0,
			   r->standby_source == NULL);
	}
	if (wp_schema_has(700))
	{
		wp_step_columns_open_loop(row, r);
		wp_col_fig(row, "commit_avg_ms", r->commit_avg_ms);
		wp_col_fig(row, "commit_p99_ms", r->commit_p99_ms);
	}
}

/* Each standby over the window: walpressure.step_replication (0.6.0). */
static void
wp_standby_rows(int64 sweep_id, int step, const WpStepResult *r)
{
	for (int i = 0; wp_schema_has(600) && i < r->nstandbys; i++)
	{
		const WpStandbyFig *f = &r->standbys[i];
		WpRow		srow = {0};

		wp_col(&srow, "sweep_id", INT8OID, Int64GetDatum(sweep_id), false);
		wp_col(&srow, "step", INT4OID, Int32GetDatum(step), false);
		wp_col(&srow, "standby", TEXTOID, CStringGetTextDatum(f->name), false);
		wp_col(&srow, "pid", INT4OID, Int32GetDatum(f->pid), false);
		wp_col(&srow, "sync_state", TEXTOID, CStringGetTextDatum(f->sync_state), false);
		wp_col(&srow, "samples", INT4OID, Int32GetDatum(f->samples), false);
		wp_col_fig(&srow, "write_lag_ms_mean", f->nwrite > 0 ? f->write_lag_ms_sum / f->nwrite : -1);
		wp_col_fig(&srow, "write_lag_ms_max", f->nwrite > 0 ? f->write_lag_ms_max : -1);
		wp_col_fig(&srow, "flush_lag_ms_mean", f->nflush > 0 ? f->flush_lag_ms_sum / f->nflush : -1);
		wp_col_fig(&srow, "flush_lag_ms_max", f->nflush > 0 ? f->flush_lag_ms_max : -1);
		wp_col_fig(&srow, "replay_lag_ms_mean", f->nreplay > 0 ? f->replay_lag_ms_sum / f->nreplay : -1);
		wp_col_fig(&srow, "replay_lag_ms_max", f->nreplay > 0 ? f->replay_lag_ms_max : -1);
		wp_col_fig(&srow, "behind_bytes_mean", f->samples > 0 ? f->behind_bytes_sum / f->samples : -1);
		wp_col_fig(&srow, "behind_bytes_max", f->samples > 0 ? f->behind_bytes_max : -1);
		wp_row_insert(&srow, "walpressure.step_replication", NULL);
	}
}

/* Each second of the window: walpressure.step_samples. */
static void
wp_second_rows(int64 sweep_id, int step, const WpStepSample *samples, int nsamples)
{
	for (int i = 0; i < nsamples; i++)
	{
		const WpStepSample *s = &samples[i];
		WpRow		srow = {0};

		wp_col(&srow, "sweep_id", INT8OID, Int64GetDatum(sweep_id), false);
		wp_col(&srow, "step", INT4OID, Int32GetDatum(step), false);
		wp_col(&srow, "second", INT4OID, Int32GetDatum(i + 1), false);
		if (wp_schema_has(300))
			wp_col(&srow, "sample_time", TIMESTAMPTZOID, TimestampTzGetDatum(s->at), false);
		wp_col(&srow, "tps", FLOAT8OID, Float8GetDatum(s->tps), false);
		wp_col_fig(&srow, "latency_p50_ms", s->latency_p50_ms);
		wp_col_fig(&srow, "latency_p99_ms", s->latency_p99_ms);
		wp_col(&srow, "commits", INT8OID, Int64GetDatum(s->commits), false);
		wp_col(&srow, "wal_fsyncs", INT8OID, Int64GetDatum(s->wal_fsyncs), s->wal_fsyncs < 0);
		wp_col(&srow, "wal_bytes", INT8OID, Int64GetDatum(s->wal_bytes), s->wal_bytes < 0);
		wp_row_insert(&srow, "walpressure.step_samples", NULL);
	}
}

/* The load's statements over the window: walpressure.step_statements (0.5.0). */
static void
wp_stmt_rows(int64 sweep_id, int step, const WpStepResult *r)
{
	if (wp_schema_has(500))
		for (int i = 0; i < r->nstmts; i++)
		{
			const WpStmtFig *f = &r->stmts[i];
			WpRow		qrow = {0};

			wp_col(&qrow, "sweep_id", INT8OID, Int64GetDatum(sweep_id), false);
			wp_col(&qrow, "step", INT4OID, Int32GetDatum(step), false);
			wp_col(&qrow, "rank", INT4OID, Int32GetDatum(i + 1), false);
			wp_col(&qrow, "queryid", INT8OID, Int64GetDatum(f->queryid), false);
			wp_col(&qrow, "query", TEXTOID, CStringGetTextDatum(f->query), false);
			wp_col(&qrow, "calls", INT8OID, Int64GetDatum(f->calls), false);
			wp_col(&qrow, "total_ms", FLOAT8OID, Float8GetDatum(f->total_ms), false);
			wp_col(&qrow, "mean_ms", FLOAT8OID, Float8GetDatum(f->mean_ms), false);
			wp_col(&qrow, "stddev_ms", FLOAT8OID, Float8GetDatum(f->stddev_ms), false);
			wp_col(&qrow, "rows", INT8OID, Int64GetDatum(f->rows), false);
			wp_col(&qrow, "wal_bytes", INT8OID, Int64GetDatum(f->wal_bytes), false);
			wp_row_insert(&qrow, "walpressure.step_statements", NULL);
		}
}

/*
 * Insert a step's row and its samples, and count it done; one transaction.
 */
void
wp_results_step_insert(int64 sweep_id, const WpSweepRequest *req, int step, int pos,
					   int repeat, const WpLoadSpec *spec, const WpStepResult *r,
					   const WpStepSample *samples, int nsamples)
{
	WpRow		row = {0};
	int			rc;

	wp_step_columns(&row, sweep_id, req, step, pos, repeat, spec, r);
	wp_owner_begin();
	wp_step_columns_newer(&row, r);
	wp_row_insert(&row, "walpressure.steps", NULL);
	wp_standby_rows(sweep_id, step, r);
	wp_second_rows(sweep_id, step, samples, nsamples);
	wp_stmt_rows(sweep_id, step, r);
	rc = SPI_execute_with_args("UPDATE walpressure.sweeps SET steps_done = steps_done + 1 "
							   "WHERE sweep_id = $1",
							   1, (Oid[]) {INT8OID}, (Datum[]) {Int64GetDatum(sweep_id)},
							   NULL, false, 0);
	if (rc != SPI_OK_UPDATE)
		elog(ERROR, "could not update sweep " INT64_FORMAT, sweep_id);
	wp_owner_end();
}


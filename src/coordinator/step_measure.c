/*-------------------------------------------------------------------------
 *
 * step_measure.c
 *		A step measured: its load run and its window read, in this order:
 *
 *	server-wide value in effect -> CHECKPOINT -> the step's cap -> the load
 *	starts (engine) -> warm-up -> statistics flushed -> measured window, one
 *	sample a second -> the load stops -> counters read -> figures
 *
 * A load that ends before its time (pgbench killed, some of its clients
 * lost) cuts the window short: what was measured is kept and the step is
 * marked (discarded), so that it is not averaged as if it were clean.  One
 * that ends during the warm-up fails the sweep: nothing was measured.  A
 * window the server's statistics were reset in is marked too, and the
 * figures taken from them are stored as NULL.
 *
 * The figures come from a pure function of the counters read at the
 * window's edges (wp_step_figures), so what a step reports is computed the
 * same way whatever engine ran the load.
 *
 * IDENTIFICATION
 *	  src/coordinator/step_measure.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "pgstat.h"
#include "access/xlog.h"
#include "postmaster/bgwriter.h"
#include "storage/latch.h"
#include "utils/guc.h"
#include "utils/timestamp.h"

#include "compat.h"
#include "common/cpu.h"
#include "job/slot.h"
#include "system/standby_link.h"
#include "system/walsenders.h"
#include "coordinator/settings_hold.h"
#include "sweep/configs.h"
#include "sweep/policy.h"
#include "system/pgss.h"
#include "coordinator/standby_watch.h"
#include "coordinator/step_measure.h"
#include "system/wal_reader.h"

#define WP_LOAD_END_MS			5000

/* the step in flight, for wp_step_wait (the engines' flush calls it too) */
static const WpLoadEngine *wp_engine = NULL;
static bool wp_load_gone = false;	/* the load ended early (engine->lost) */
static WpStandbyWatch wp_watch;

/*
 * Wait `ms`, watching for a cancel and for failing clients.  False when the
 * sweep was cancelled; early when the load ended before its time
 * (wp_load_gone).
 */
static bool
wp_step_wait(long ms)
{
	TimestampTz end = TimestampTzPlusMilliseconds(GetCurrentTimestamp(), ms);

	for (;;)
	{
		long		left = TimestampDifferenceMilliseconds(GetCurrentTimestamp(), end);

		if (wp_job_cancelled())
			return false;
		if (!wp_engine->check())
			wp_load_gone = true;
		wp_standby_watch_tick(&wp_watch);
		if (left <= 0 || wp_load_gone || wp_watch.gone)
			return true;
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 Min(left, 100), PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
}

/*
 * The step's settings that can lose data in a crash, as labels: the
 * server's fsync and full_page_writes as now in effect, the clients'
 * synchronous_commit (the step's, or the role's and database's default).
 */
static char *
wp_step_data_loss(const WpLoadSpec *spec)
{
	static const char *const names[] = {"fsync", "full_page_writes", "synchronous_commit"};
	StringInfoData out;

	initStringInfo(&out);
	for (int i = 0; i < lengthof(names); i++)
	{
		const char *v = strcmp(names[i], "synchronous_commit") == 0 ?
			wp_default_sync_commit() : GetConfigOption(names[i], false, false);
		const char *label;

		for (int s = 0; s < spec->nsettings; s++)
			if (strcmp(spec->settings[s].name, names[i]) == 0)
				v = spec->settings[s].value;
		label = wp_data_loss(names[i], v);
		if (label)
			appendStringInfo(&out, "%s%s", out.len > 0 ? ", " : "", label);
	}
	return out.len > 0 ? out.data : NULL;
}

/*
 * A checkpoint, and its statistics in: the checkpointer wakes the waiter
 * before it reports the checkpoint to pgstat, and the step's own checkpoint
 * must not count as one inside the measured window.
 */
static void
wp_step_checkpoint(void)
{
	int64		timed0,
				req0,
				timed,
				req;
	double		w,
				s;

	pgstat_clear_snapshot();
	wp_read_checkpoints(&timed0, &req0, &w, &s);
	RequestCheckpoint(CHECKPOINT_IMMEDIATE | CHECKPOINT_FORCE | CHECKPOINT_WAIT);
	for (int waited = 0; waited < 5000; waited += 10)
	{
		pgstat_clear_snapshot();
		wp_read_checkpoints(&timed, &req, &w, &s);
		if (timed + req > timed0 + req0)
			break;
		pg_usleep(10000L);
		CHECK_FOR_INTERRUPTS();
	}
}

/*
 * Stop the step's load, whatever state it is in.
 */
void
wp_step_stop_load(const WpStepPlan *plan)
{
	plan->engine->stop(false);
	/* its connections' commits still waiting for a lost standby */
	(void) wp_syncrep_release(wp_job_role());
}

/*
 * The measured window: one sample a second into `samples`, taken at
 * `marks`.  False when cancelled.
 */
static bool
wp_step_window(const WpStepPlan *plan, WpStepCounters *k, WpStepResult *r,
			   WpStepSample *samples, TimestampTz *marks, int max_samples, int *nsamples)
{
	const WpLoadEngine *engine = plan->engine;
	WpCounters	cprev = k->c0;
	WpLoadTotals *tprev = palloc(sizeof(WpLoadTotals));
	WpLoadTotals *tnow = palloc(sizeof(WpLoadTotals));
	WpHistSnap *delta = palloc(sizeof(WpHistSnap));
	TimestampTz window_end = TimestampTzPlusMilliseconds(k->c0.ts,
														 (int64) (plan->req->duration_s * 1000));

	memcpy(tprev, &k->t0, sizeof(WpLoadTotals));
	for (;;)
	{
		long		left = TimestampDifferenceMilliseconds(GetCurrentTimestamp(), window_end);
		WpCounters	cnow;
		double		secs;

		if (left <= 0)
			return true;
		if (!wp_step_wait(Min(left, 1000)))
			return false;
		if (wp_load_gone || wp_watch.gone)
			return true;		/* the step ends here, marked */

		wp_standbys_sample(r->standbys, &r->nstandbys);
		pgstat_clear_snapshot();
		wp_read_counters(&cnow, NULL);
		engine->read(tnow);
		secs = (double) (cnow.ts - cprev.ts) / USECS_PER_SEC;
		if (*nsamples < max_samples && secs > 0)
		{
			WpStepSample *s = &samples[*nsamples];

			marks[(*nsamples)++] = cnow.ts;
			s->at = cnow.ts;
			s->tps = (tnow->txns - tprev->txns) / secs;
			wp_hist_subtract(delta, &tnow->hist, &tprev->hist);
			s->latency_p50_ms = wp_us_to_ms(wp_hist_percentile(delta, 0.50));
			s->latency_p99_ms = wp_us_to_ms(wp_hist_percentile(delta, 0.99));
			s->commits = cnow.commits - cprev.commits;
			s->wal_fsyncs = cnow.wal_sync - cprev.wal_sync;
			s->wal_bytes = cnow.wal_bytes - cprev.wal_bytes;
		}
		cprev = cnow;
		memcpy(tprev, tnow, sizeof(WpLoadTotals));
	}
}

/*
 * For an engine that counts only once the load has ended: the clients'
 * totals over the window, and each second's figures.
 */
static void
wp_step_resolve(const WpLoadEngine *engine, WpStepCounters *k, WpStepSample *samples,
				const TimestampTz *marks, int nsamples)
{
	WpLoadSecond *seconds = palloc0(sizeof(WpLoadSecond) * Max(nsamples, 1));
	TimestampTz end = k->c0.ts + (TimestampTz) (k->seconds * USECS_PER_SEC);

	memset(&k->t0, 0, sizeof(WpLoadTotals));
	engine->resolve(k->c0.ts, end, &k->t1, marks, nsamples, seconds);
	for (int i = 0; i < nsamples; i++)
	{
		samples[i].tps = seconds[i].tps;
		samples[i].latency_p50_ms = seconds[i].latency_p50_ms;
		samples[i].latency_p99_ms = seconds[i].latency_p99_ms;
	}
}

/* The clients' synchronous_commit in this step. */
static const char *
wp_step_sync_commit(const WpLoadSpec *spec)
{
	const char *v = wp_default_sync_commit();

	for (int s = 0; s < spec->nsettings; s++)
		if (strcmp(spec->settings[s].name, "synchronous_commit") == 0)
			v = spec->settings[s].value;
	return v;
}

/*
 * The time the window's commits waited for standbys (the sampler's), as
 * a share of their commit time (the probe's) and per commit.  None when
 * the server had no walsender and nothing waited.
 */
static void
wp_step_syncrep(const WpStepCounters *k, WpStepResult *r)
{
	double		wait_us = (double) (k->c1.syncrep_wait_us - k->c0.syncrep_wait_us);
	double		commit_us = (double) (k->c1.commit_time_us - k->c0.commit_time_us);

	if (r->nstandbys == 0 && wait_us == 0)
		return;
	if (commit_us > 0)
		r->syncrep_wait_pct = Min(100.0, 100.0 * wait_us / commit_us);
	if (r->commits > 0)
		r->syncrep_wait_ms = wait_us / 1000.0 / r->commits;
}

/* What the window's start read, for its end. */
typedef struct WpStepEdges
{
	double		client_cpu0;	/* < 0: not known */
	double		server_cpu0;
	WpStmtSnap *stmts0;			/* NULL: no pg_stat_statements */
	void	   *standby0;		/* NULL: no standby to read */
} WpStepEdges;

/* A new step: nothing lost, nothing measured. */
static void
wp_step_begin(const WpStepPlan *plan, const WpLoadSpec *spec, WpStepResult *r)
{
	wp_engine = plan->engine;
	wp_load_gone = false;
	wp_standby_watch_reset(&wp_watch, spec->roleoid);
	memset(r, 0, sizeof(*r));
	r->standbys = palloc0(sizeof(WpStandbyFig) * WP_STANDBYS_MAX);
	r->syncrep_wait_pct = r->syncrep_wait_ms = -1;
	r->standby_wal_mb_per_s = r->standby_wal_writes_per_s = -1;
	r->standby_wal_fsyncs_per_s = r->standby_write_iops = -1;
}

/*
 * A server-wide value first, in effect before the checkpoint and clients;
 * in a configuration sweep, each server-wide setting the values change:
 * this value's, or as it was before the sweep.
 */
static void
wp_step_server_values(const WpStepPlan *plan, int step, int repeat, int pos)
{
	const WpSweepRequest *req = plan->req;
	List	   *values = NIL;
	ListCell   *ln;
	ListCell   *lo;

	if (plan->server_names == NIL)
		return;
	forboth(ln, plan->server_names, lo, plan->server_originals)
	{
		const char *v;

		values = lappend(values, pstrdup(wp_value_sets(req, pos, lfirst(ln), &v) ?
										 v : (const char *) lfirst(lo)));
	}
	wp_job_phase(WP_PHASE_SETTINGS, step, repeat, req->vals[pos]);
	wp_server_settings_apply(plan->record, plan->server_names, values);
}

/*
 * The same WAL state at every step's start: no pending full-page images.
 * The CHECKPOINT is the sweep's own, not the load's: it runs without the
 * cap (the limits as they were before the sweep), so that writing the last
 * step's dirty buffers takes seconds, not minutes at the cap.  With
 * checkpoint => false, none: the checkpoints come as the server's settings
 * bring them, and their writes go through the cap.  Then the step's cap.
 */
static void
wp_step_checkpoint_and_cap(const WpStepPlan *plan, int step, int repeat, int pos,
						   WpStepResult *r)
{
	const WpSweepRequest *req = plan->req;

	if (req->checkpoint)
	{
		wp_job_phase(WP_PHASE_CHECKPOINT, step, repeat, req->vals[pos]);
		if (plan->cap->active)
			wp_cap_release(plan->cap);
		wp_step_checkpoint();
	}
	if (plan->cap->active)
	{
		r->iops_cap = strcmp(req->setting, "iops_cap") == 0 ? req->ivals[pos] : req->iops_cap;
		r->disk = wp_disk_model_name(wp_step_disk(req, pos));
		wp_cap_set(plan->cap, wp_step_disk(req, pos), r->iops_cap);
	}
}

/*
 * The load starts and warms up.  False when the step ends here: cancelled
 * (r->skipped false) or its standby lost (the step skipped, nothing
 * measured).  A load that ended fails the sweep.
 */
static bool
wp_step_warmup(const WpStepPlan *plan, int step, const WpLoadSpec *spec, WpStepResult *r)
{
	const WpLoadEngine *engine = plan->engine;

	engine->start(spec, plan->req->warmup_s + plan->req->duration_s);
	if (!wp_step_wait((long) (plan->req->warmup_s * 1000)))
		return false;
	if (wp_watch.gone)
	{
		engine->cut();
		wp_load_end(spec->roleoid, WP_LOAD_END_MS);
		engine->stop(true);
		(void) wp_syncrep_release(spec->roleoid);
		r->standby_lost = r->skipped = true;
		r->discarded = psprintf("standby lost in the warm-up: %s", wp_watch.why);
		return false;
	}
	if (wp_load_gone)
	{
		engine->stop(true);
		ereport(ERROR,
				(errcode(ERRCODE_EXTERNAL_ROUTINE_EXCEPTION),
				 errmsg("the load of step %d ended during its warm-up, before anything was measured", step),
				 errdetail("%s", engine->lost() ? engine->lost() : "no reason given")));
	}
	return true;
}

/*
 * The window's start.  Each backend holds back up to a second of its WAL
 * statistics from pg_stat_wal (it reports them when idle, at most once a
 * second), so the server's counters are read at both ends while the
 * clients run (wp_step_close): what each end lacks is alike, and the
 * window's fsyncs, records and bytes are not counted with the warm-up's
 * last second (which the end read after the clients' exit counted: up to
 * a tenth too many fsyncs in an 8 s window).
 */
static void
wp_step_open(const WpStepPlan *plan, const WpLoadSpec *spec, WpStepCounters *k,
			 WpStepEdges *e)
{
	pgstat_clear_snapshot();
	wp_read_counters(&k->c0, &k->h0);
	plan->engine->read(&k->t0);
	k->have_ios = wp_cap_device_ios(plan->cap, &k->reads0, &k->writes0);
	e->client_cpu0 = plan->engine->cpu_s();
	e->server_cpu0 = wp_server_cpu_s();
	e->stmts0 = wp_statements_snap(spec->roleoid, false);
	e->standby0 = wp_standby_window_begin(plan->req->standby_conninfo);
}

/* A figure's change over the window, or -1 when either end is unknown. */
static double
wp_step_delta(double before, double after)
{
	return before >= 0 && after >= 0 ? after - before : -1;
}

/*
 * The window's end: the clients' own figures now, the load stopped, then
 * the standby's side.
 */
static void
wp_step_close(const WpStepPlan *plan, int step, int repeat, int pos,
			  const WpLoadSpec *spec, WpStepCounters *k, const WpStepEdges *e,
			  WpStepResult *r)
{
	const WpLoadEngine *engine = plan->engine;
	WpStandbySide side;

	/* the standby is lost: end the load now, and its backends */
	if (wp_watch.gone)
	{
		engine->cut();
		wp_load_end(spec->roleoid, WP_LOAD_END_MS);
	}
	engine->read(&k->t1);
	k->seconds = (double) (GetCurrentTimestamp() - k->c0.ts) / USECS_PER_SEC;
	/* the server's counters at the window's end, as at its start: the clients running */
	pgstat_clear_snapshot();
	wp_read_counters(&k->c1, &k->h1);
	if (k->have_ios)
		k->have_ios = wp_cap_device_ios(plan->cap, &k->reads1, &k->writes1);
	r->client_cpu_s = wp_step_delta(e->client_cpu0, engine->cpu_s());
	r->server_cpu_s = wp_step_delta(e->server_cpu0, wp_server_cpu_s());
	if (e->stmts0 != NULL)
	{
		r->stmts = palloc(sizeof(WpStmtFig) * WP_STMT_TOP);
		r->nstmts = wp_statements_window(e->stmts0, wp_statements_snap(spec->roleoid, true),
										 r->stmts, WP_STMT_TOP);
	}
	wp_job_phase(WP_PHASE_STOPPING, step, repeat, plan->req->vals[pos]);
	engine->stop(true);
	if (engine->lost())
		r->discarded = pstrdup(engine->lost());
	if (wp_watch.gone)
	{
		char	   *why = psprintf("standby lost %.1f s into the window: %s", k->seconds,
								   wp_watch.why ? wp_watch.why : "?");

		(void) wp_syncrep_release(spec->roleoid);
		r->standby_lost = true;
		r->discarded = r->discarded ? psprintf("%s; %s", why, r->discarded) : why;
	}
	wp_standby_window_end(e->standby0, k->seconds, &side);
	r->standby_wal_mb_per_s = side.wal_mb_per_s;
	r->standby_wal_writes_per_s = side.wal_writes_per_s;
	r->standby_wal_fsyncs_per_s = side.wal_fsyncs_per_s;
	r->standby_write_iops = side.write_iops;
	r->standby_source = side.source;
	wp_standbys_finish(r->standbys, r->nstandbys);
}

/*
 * The step's figures from both ends of its window (the server's counters
 * read at each, the clients running), once the clients exited.
 */
static void
wp_step_finish(const WpStepPlan *plan, const WpLoadSpec *spec, WpStepCounters *k, WpStepResult *r,
			   WpStepSample *samples, const TimestampTz *marks, int nsamples)
{
	if (plan->engine->resolve != NULL)
		wp_step_resolve(plan->engine, k, samples, marks, nsamples);
	k->open_sync = strncmp(GetConfigOption("wal_sync_method", false, false), "open_", 5) == 0;
	k->rate = spec->rate;
	k->latency_limit_ms = plan->req->latency_limit_ms;
	wp_step_figures(k, r);
	wp_step_syncrep(k, r);
	/*
	 * the images' bytes, the records, the images and the records' bytes from
	 * the window's own WAL, on every major: pg_stat_wal lags by what the
	 * processes have not yet reported (up to a second each for a client: a
	 * fifth of a short window's images on 19, a third of its records on 15
	 * under load; other processes' later still: an autovacuum worker reports
	 * its run as it ends), so that its bytes fell short of the window's WAL
	 * as well (5.97 MB against 8.66 MB in a 3 s window of test 003 on 16);
	 * its counts stay where the WAL cannot be read
	 */
	{
		int64		records;
		int64		fpis;
		int64		bytes;

		r->fpi_bytes = wp_wal_fpi_bytes(r->lsn_start, r->lsn_end, wp_job_cancelled, &records, &fpis, &bytes);
		if (r->fpi_bytes >= 0 && !r->wal_reset)
		{
			r->wal_records = records;
			r->wal_fpi = fpis;
			r->wal_bytes = bytes;
		}
	}
	if (r->wal_reset || r->ckpt_reset)
	{
		const char *why = psprintf("the server's %s statistics were reset during the window (pg_stat_reset_shared): the figures taken from them are void",
								   r->wal_reset && r->ckpt_reset ? "WAL and checkpointer" :
								   r->wal_reset ? "WAL" : "checkpointer");

		r->discarded = r->discarded ? psprintf("%s; %s", r->discarded, why) : pstrdup(why);
	}
}

/*
 * Run step `step` (repeat `repeat`) with value `pos` of the swept setting
 * and measure it.  `spec` holds the step's load and session settings.  False
 * when cancelled (nothing measured).
 */
bool
wp_step_run(const WpStepPlan *plan, int step, int repeat, int pos,
			WpLoadSpec *spec, WpStepResult *r,
			WpStepSample *samples, int max_samples, int *nsamples)
{
	const char *value = plan->req->vals[pos];
	WpStepCounters *k = palloc0(sizeof(WpStepCounters));
	WpStepEdges edges;
	TimestampTz *marks;
	TimestampTz step_start = GetCurrentTimestamp();
	bool		ok = false;

	wp_step_begin(plan, spec, r);
	*nsamples = 0;
	wp_step_server_values(plan, step, repeat, pos);
	r->data_loss = wp_step_data_loss(spec);

	/*
	 * commits that wait for a synchronous standby: it must be there now (a
	 * standby reconnecting gets a few seconds), and is watched from here on
	 */
	if (wp_level_waits(wp_step_sync_commit(spec)) &&
		!wp_standby_watch_there(&wp_watch, step, plan->req->standby_loss_skip))
	{
		r->skipped = true;
		r->discarded = psprintf("skipped: %s", wp_watch.why);
		return true;
	}
	wp_watch.watching = true;
	wp_step_checkpoint_and_cap(plan, step, repeat, pos, r);

	wp_job_phase(WP_PHASE_WARMUP, step, repeat, value);
	r->setup_s = (double) (GetCurrentTimestamp() - step_start) / USECS_PER_SEC;
	if (!wp_step_warmup(plan, step, spec, r))
	{
		ok = r->skipped;
		goto stop;
	}
	if (!plan->engine->flush(wp_step_wait))
		goto stop;
	wp_job_phase(WP_PHASE_WINDOW, step, repeat, value);
	wp_step_open(plan, spec, k, &edges);
	marks = palloc(sizeof(TimestampTz) * Max(max_samples, 1));
	if (!wp_step_window(plan, k, r, samples, marks, max_samples, nsamples))
		goto stop;
	wp_step_close(plan, step, repeat, pos, spec, k, &edges, r);
	wp_step_finish(plan, spec, k, r, samples, marks, *nsamples);
	ok = true;

stop:
	plan->engine->stop(false);
	return ok;
}

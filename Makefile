# walpressure: PGXS build.
#
#   make && make install          build and install into the server found by pg_config
#   make installcheck             pg_regress against a temporary instance that preloads the library
#   bash test/run                 every suite (pg_regress, pgTAP, Perl TAP), as the README says

EXTENSION = walpressure
MODULE_big = walpressure
OBJS = \
	src/walpressure.o \
	src/shmem.o \
	src/histogram.o \
	src/probe.o \
	src/sampler.o \
	src/sqlfuncs.o \
	src/policy.o \
	src/request.o \
	src/job.o \
	src/launch.o \
	src/progress.o \
	src/coordinator.o \
	src/step.o \
	src/figures.o \
	src/clients.o \
	src/pgbench_engine.o \
	src/pgbench_log.o \
	src/program.o \
	src/cpu.o \
	src/client.o \
	src/results.o \
	src/recovery.o \
	src/cap.o \
	src/server_settings.o \
	src/settings_record.o \
	src/init_pgbench.o \
	src/cgroup.o \
	src/worker.o \
	src/fsync_probe.o

SHLIB_LINK = -lcgroup

# The install script, from SQL pieces by concern (in this order).
SQL_PIECES = \
	sql/install/01_live.sql \
	sql/install/02_tables.sql \
	sql/install/03_results.sql \
	sql/install/04_sweep_api.sql \
	sql/install/05_disk.sql \
	sql/install/06_reading.sql
DATA_built = walpressure--0.1.0.sql
PG_CPPFLAGS = -I$(srcdir)/src

REGRESS = live samples privileges sweep_errors iops_cap statistics
REGRESS_OPTS = --temp-instance=./tmp_check --temp-config=$(srcdir)/test/preload.conf

# The one suite that needs a server without the library preloaded.
REGRESS_NOT_PRELOADED = not_preloaded

EXTRA_CLEAN = tmp_check tmp_check_np results regression.diffs regression.out

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

walpressure--0.1.0.sql: $(SQL_PIECES)
	cat $^ > $@

.PHONY: installcheck-not-preloaded
installcheck-not-preloaded:
	$(pg_regress_installcheck) --temp-instance=./tmp_check_np $(REGRESS_NOT_PRELOADED)

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
	src/fsync_probe.o \
	src/reading.o \
	src/configs.o \
	src/statements.o \
	src/walread.o \
	src/replication.o \
	src/standby.o

SHLIB_LINK = -lcgroup
# standby_conninfo: the coordinator is a libpq client of the standby
SHLIB_LINK_INTERNAL = $(libpq)

# The install script, from SQL pieces by concern (in this order).
SQL_PIECES = \
	sql/install/01_live.sql \
	sql/install/02_tables.sql \
	sql/install/03_results.sql \
	sql/install/04_sweep_api.sql \
	sql/install/05_disk.sql \
	sql/install/06_reading.sql
# The version the install script is built as (walpressure.control's
# default_version).  A released version's script is frozen in sql/releases/;
# every later SQL change comes with a new version, its own full script and a
# sql/walpressure--OLD--NEW.sql update script (test/run checks all three).
EXTVERSION = $(shell sed -n "s/^default_version = '\(.*\)'/\1/p" $(srcdir)/walpressure.control)
DATA_built = walpressure--$(EXTVERSION).sql
# earlier releases' scripts (CREATE EXTENSION ... VERSION, for updates) and
# the update scripts between them
# (PGXS installs DATA from $(srcdir): the names are relative to it)
DATA = $(patsubst $(srcdir)/%,%,$(filter-out $(srcdir)/sql/releases/walpressure--$(EXTVERSION).sql,\
	$(wildcard $(srcdir)/sql/releases/walpressure--*.sql) $(wildcard $(srcdir)/sql/walpressure--*--*.sql)))
PG_CPPFLAGS = -I$(srcdir)/src -I$(libpq_srcdir)

REGRESS = live samples privileges sweep_errors iops_cap statistics
REGRESS_OPTS = --temp-instance=./tmp_check --temp-config=$(srcdir)/test/preload.conf

# The one suite that needs a server without the library preloaded.
REGRESS_NOT_PRELOADED = not_preloaded

EXTRA_CLEAN = tmp_check tmp_check_np results regression.diffs regression.out

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# every object depends on the headers (PGXS tracks no header dependencies
# unless the server was configured with --enable-depend): a changed struct
# rebuilds everything that uses it
$(OBJS): $(wildcard src/*.h)

# A VPATH build (pg_buildext builds each major in build-MAJOR/) writes the
# objects in a src/ of its own.
ifdef VPATH
$(shell mkdir -p src)
endif

walpressure--$(EXTVERSION).sql: $(SQL_PIECES)
	sed '1s/@EXTVERSION@/$(EXTVERSION)/' $^ > $@

# The current version's script, once released, never changes: fails if the
# pieces no longer build the frozen sql/releases/walpressure--VERSION.sql.
.PHONY: check-frozen
check-frozen: walpressure--$(EXTVERSION).sql
	@if [ -f $(srcdir)/sql/releases/walpressure--$(EXTVERSION).sql ]; then \
		if cmp -s $< $(srcdir)/sql/releases/walpressure--$(EXTVERSION).sql; then \
			echo "ok 1 - walpressure--$(EXTVERSION).sql is the frozen release"; \
		else \
			echo "not ok 1 - sql/install/ changed after $(EXTVERSION) was released: give the change a new version and an update script"; \
			diff $(srcdir)/sql/releases/walpressure--$(EXTVERSION).sql $< | head -n 20; \
		fi; \
	else \
		echo "ok 1 - $(EXTVERSION) is not released yet"; \
	fi

.PHONY: installcheck-not-preloaded
installcheck-not-preloaded:
	$(pg_regress_installcheck) --temp-instance=./tmp_check_np $(REGRESS_NOT_PRELOADED)

# walpressure: PGXS build.
#
#   make && make install          build and install into the server found by pg_config
#   make installcheck             pg_regress against a temporary instance that preloads the library
#   bash test/run                 every suite (pg_regress, pgTAP, Perl TAP), as the README says

EXTENSION = walpressure
MODULE_big = walpressure
# Every C file of src/, by layer (src/README.md; test/layers checks that
# calls and includes go one way), but src/pacer/: the paced disk is a
# library of its own, preloaded into the postmaster (src/pacer/README.md).
OBJS = $(patsubst $(srcdir)/%.c,%.o,$(sort $(filter-out $(srcdir)/src/pacer/%,\
	$(wildcard $(srcdir)/src/*.c $(srcdir)/src/*/*.c))))

# The paced disk, walpressure_pacer.so: built beside walpressure.so with
# flags of its own (none of the server's: it includes no PostgreSQL header,
# and is loaded by LD_PRELOAD, not by the server), installed in pkglibdir.
PACER = walpressure_pacer$(DLSUFFIX)
PACER_CFLAGS = -O2 -g -Wall -Werror -Wmissing-prototypes -fPIC -fvisibility=hidden \
	-fstack-protector-strong -D_FORTIFY_SOURCE=2
PACER_LDFLAGS = -shared -Wl,-z,relro -Wl,-z,now

SHLIB_LINK = -lcgroup
# standby_conninfo: the coordinator is a libpq client of the standby
SHLIB_LINK_INTERNAL = $(libpq)

# The install script and the update scripts, assembled from each SQL source
# kept once (sql/assemble says how): the current version's install script,
# and one update script from each earlier release (sql/RELEASES) to it.
EXTVERSION = $(shell sed -n "s/^default_version = '\(.*\)'/\1/p" $(srcdir)/walpressure.control)
RELEASED = $(shell sed -e 's/\#.*//' $(srcdir)/sql/RELEASES | awk 'NF {print $$1}')
UPDATE_FROM = $(filter-out $(EXTVERSION),$(RELEASED))
SQL_SOURCES = $(srcdir)/walpressure.control $(srcdir)/sql/assemble $(srcdir)/sql/RELEASES \
	$(srcdir)/sql/SOURCES $(srcdir)/sql/tables.sql $(wildcard $(srcdir)/sql/objects/*.sql) \
	$(wildcard $(srcdir)/sql/objects/*/*.sql) $(wildcard $(srcdir)/sql/updates/*.sql)
DATA_built = walpressure--$(EXTVERSION).sql $(foreach v,$(UPDATE_FROM),walpressure--$(v)--$(EXTVERSION).sql)
PG_CPPFLAGS = -I$(srcdir)/src -I$(libpq_srcdir)

# the regression suites: their inputs in sql/regress_*.sql, where PGXS looks
# for them (beside the extension's own sources, sql/objects/), their outputs
# in expected/
REGRESS = regress_live regress_samples regress_privileges regress_sweep_errors regress_iops_cap \
	regress_statistics regress_answers regress_security regress_import_hostile regress_search_predict \
	regress_pinned_path regress_fleet
REGRESS_OPTS = --temp-instance=./tmp_check --temp-config=$(srcdir)/test/preload.conf

# The one suite that needs a server without the library preloaded.
REGRESS_NOT_PRELOADED = regress_not_preloaded

EXTRA_CLEAN = $(PACER) tmp_check tmp_check_np results regression.diffs regression.out

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# every object depends on the headers (PGXS tracks no header dependencies
# unless the server was configured with --enable-depend): a changed struct
# rebuilds everything that uses it
$(OBJS): $(wildcard $(srcdir)/src/*.h $(srcdir)/src/*/*.h)

# A VPATH build (pg_buildext builds each major in build-MAJOR/) writes the
# objects in a src/ tree of its own.
ifdef VPATH
VPATH_SRC_DIRS = $(patsubst $(srcdir)/%,%,$(wildcard $(srcdir)/src/*/))
ifneq ($(VPATH_SRC_DIRS),)
$(shell mkdir -p $(VPATH_SRC_DIRS))
endif
endif

all: $(PACER)

PACER_SRCS = src/pacer/walpressure_pacer.c src/pacer/pacer_fds.c src/pacer/pacer_clock.c
# the sources by $(srcdir), for a VPATH build (pg_buildext's build-MAJOR/)
$(PACER): $(addprefix $(srcdir)/,$(PACER_SRCS) src/pacer/pacer_state.h src/pacer/pacer_internal.h)
	$(CC) $(PACER_CFLAGS) $(PACER_LDFLAGS) -o $@ $(addprefix $(srcdir)/,$(PACER_SRCS)) -ldl

install: install-pacer
uninstall: uninstall-pacer

.PHONY: install-pacer uninstall-pacer
install-pacer: $(PACER) installdirs
	$(INSTALL_SHLIB) $< '$(DESTDIR)$(pkglibdir)/'

uninstall-pacer:
	rm -f '$(DESTDIR)$(pkglibdir)/$(PACER)'

walpressure--$(EXTVERSION).sql: $(SQL_SOURCES)
	sh $(srcdir)/sql/assemble install > $@

walpressure--%--$(EXTVERSION).sql: $(SQL_SOURCES)
	sh $(srcdir)/sql/assemble update $* > $@

.PHONY: installcheck-not-preloaded
installcheck-not-preloaded:
	$(pg_regress_installcheck) --inputdir=$(srcdir) --temp-instance=./tmp_check_np $(REGRESS_NOT_PRELOADED)

# Shared by test/run and demo/run: install what walpressure needs, build and
# install it, and run things as the postgres OS user.  Sourced, not run.
#
# Everything here runs as root; the servers never do.

WP_PACKAGES="postgresql-15 postgresql-server-dev-15 postgresql-15-pgtap
libtap-parser-sourcehandler-pgtap-perl libipc-run-perl libcgroup-dev cgroup-tools
make gcc"

wp_die() {
	echo "walpressure: $*" >&2
	exit 1
}

wp_need_root() {
	[ "$(id -u)" = 0 ] || wp_die "run this as root: it installs packages and the extension (servers run as the postgres user)"
}

# Install the Debian packages that are missing (apt-get update first).
wp_install_deps() {
	local missing="" p
	for p in $WP_PACKAGES; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
			missing="$missing $p"
	done
	if [ -n "$missing" ]; then
		echo "== installing:$missing"
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -qq || wp_die "apt-get update failed"
		# shellcheck disable=SC2086
		apt-get install -y -qq $missing >/dev/null || wp_die "apt-get install$missing failed"
	fi
	PG_CONFIG=/usr/lib/postgresql/15/bin/pg_config
	[ -x "$PG_CONFIG" ] || wp_die "no PostgreSQL 15 pg_config at $PG_CONFIG"
	PGBIN=$("$PG_CONFIG" --bindir)
	PGXS_DIR=$(dirname "$("$PG_CONFIG" --pgxs)")/../..
	PGXS_DIR=$(cd "$PGXS_DIR" && pwd)
	export PG_CONFIG PGBIN PGXS_DIR
	id postgres >/dev/null 2>&1 || wp_die "no postgres OS user (the postgresql-15 package creates it)"
}

# Build with every warning an error, and install into the server.
wp_build_install() {
	local top=$1
	echo "== building walpressure (-Wall -Werror) and installing it"
	make -C "$top" -s clean PG_CONFIG="$PG_CONFIG" >/dev/null
	make -C "$top" -s PG_CONFIG="$PG_CONFIG" PG_CFLAGS="-Wall -Werror" ||
		wp_die "build failed"
	make -C "$top" -s install PG_CONFIG="$PG_CONFIG" >/dev/null ||
		wp_die "install failed"
}

# Run a command as the postgres OS user, with the PostgreSQL 15 binaries first
# on PATH and no inherited connection settings.
wp_as_postgres() {
	runuser -u postgres -- env -u PGHOST -u PGPORT -u PGDATABASE -u PGUSER \
		PATH="$PGBIN:/usr/local/bin:/usr/bin:/bin" "$@"
}

# Write the settings of a throwaway cluster that preloads walpressure.
# $1: data directory, $2: socket directory, $3: port.
wp_cluster_conf() {
	cat >>"$1/postgresql.conf" <<CONF

# walpressure throwaway cluster
shared_preload_libraries = 'walpressure'
track_wal_io_timing = on
max_worker_processes = 16
shared_buffers = 512MB
listen_addresses = ''
unix_socket_directories = '$2'
port = $3
CONF
}

# Create the cgroup the IOPS cap uses and delegate it to the postgres user:
# the one root command of the README.  cgroup v1 blkio, or v2 io.
wp_delegate_cgroup() {
	if [ -d /sys/fs/cgroup/blkio ]; then
		WP_CG_CONTROLLER=blkio
	else
		WP_CG_CONTROLLER=io
	fi
	export WP_CG_CONTROLLER
	cgcreate -a postgres:postgres -t postgres:postgres -g "$WP_CG_CONTROLLER:/walpressure" ||
		wp_die "could not create and delegate cgroup $WP_CG_CONTROLLER:/walpressure"
}

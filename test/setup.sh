# Shared by test/run and demo/run: install what walpressure needs, build and
# install it, and run things as the postgres OS user.  Sourced, not run.
#
# Everything here runs as root; the servers never do.

WP_PACKAGES="postgresql-15 postgresql-server-dev-15 postgresql-15-pgtap
libtap-parser-sourcehandler-pgtap-perl libipc-run-perl libcgroup-dev libpq-dev cgroup-tools
make gcc debootstrap debian-archive-keyring build-essential bison flex
libreadline-dev zlib1g-dev libicu-dev libxml2-dev pkg-config dpkg-dev gpgv xz-utils bzip2
postgresql-server-dev-all debhelper fakeroot git universal-ctags python3"

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
	id postgres >/dev/null 2>&1 || wp_die "no postgres OS user (the postgresql-15 package creates it)"
	# the benches' major, and test/run's until it picks one
	wp_use_major 15
}

# The PostgreSQL majors the suites and the demo run on: $PG_MAJORS, a list
# of 15, 16, 17, 18 and 19 (default: all five).
wp_majors() {
	local m
	WP_MAJORS=${PG_MAJORS:-15 16 17 18 19}
	for m in $WP_MAJORS; do
		case $m in
		15 | 16 | 17 | 18 | 19) ;;
		*) wp_die "PG_MAJORS=\"$PG_MAJORS\": walpressure is tested on 15, 16, 17, 18 and 19" ;;
		esac
	done
	export WP_MAJORS
}

# Get PostgreSQL major $1 (test/pg-major: 15 from Debian 12's packages, 16
# from PyPI's pgserver wheel and the npm registry's embedded-postgres server,
# 17 from trixie's packages and 19 from experimental's in a chroot, 18 built
# from sid's source package; cached).
# Sets WP_CHROOT to the chroot of a major that runs in one, else empty.
wp_get_major() {
	local got
	WP_CHROOT=""
	if [ -n "${WP_CHROOTED:-}" ]; then
		return 0 # inside the chroot: its own /usr/lib/postgresql/MAJOR
	fi
	got=$(bash "$(dirname "${BASH_SOURCE[0]}")/pg-major" "$1" | tail -n 1) ||
		wp_die "could not get PostgreSQL $1 (test/pg-major)"
	case $got in
	"chroot "*) WP_CHROOT=${got#chroot } ;;
	*) WP_PG_CONFIG_OF_MAJOR=$got ;;
	esac
	export WP_CHROOT
}

# Use PostgreSQL major $1, got by wp_get_major and not in a chroot (or from
# inside its chroot).  Sets PG_MAJOR, PG_CONFIG, PGBIN and PGXS_DIR.
wp_use_major() {
	PG_MAJOR=$1
	if [ -n "${WP_CHROOTED:-}" ] || [ "$PG_MAJOR" = 15 ]; then
		PG_CONFIG=/usr/lib/postgresql/$PG_MAJOR/bin/pg_config
	else
		PG_CONFIG=$WP_PG_CONFIG_OF_MAJOR
	fi
	[ -x "$PG_CONFIG" ] || wp_die "no PostgreSQL $PG_MAJOR pg_config at $PG_CONFIG"
	PGBIN=$("$PG_CONFIG" --bindir)
	PGXS_DIR=$(dirname "$("$PG_CONFIG" --pgxs)")/../..
	PGXS_DIR=$(cd "$PGXS_DIR" && pwd)
	export PG_MAJOR PG_CONFIG PGBIN PGXS_DIR
}

# Build with every warning an error, and install into the current major.
wp_build_install() {
	local top=$1
	echo "== building walpressure (-Wall -Werror) for PostgreSQL $PG_MAJOR and installing it"
	make -C "$top" -s clean PG_CONFIG="$PG_CONFIG" >/dev/null
	make -C "$top" -s PG_CONFIG="$PG_CONFIG" PG_CFLAGS="-Wall -Werror" ||
		wp_die "build failed"
	make -C "$top" -s install PG_CONFIG="$PG_CONFIG" >/dev/null ||
		wp_die "install failed"
}

# Run a command as the postgres OS user, with the current major's binaries first
# on PATH and no inherited connection settings.
wp_as_postgres() {
	runuser -u postgres -- env -u PGHOST -u PGPORT -u PGDATABASE -u PGUSER \
		PATH="$PGBIN:/usr/local/bin:/usr/bin:/bin" "$@"
}

# Write the settings of a throwaway cluster that preloads walpressure.
# $1: data directory, $2: socket directory, $3: port.  It trusts every local
# connection, so its socket is the postgres user's alone (root passes too).
wp_cluster_conf() {
	cat >>"$1/postgresql.conf" <<CONF

# walpressure throwaway cluster
shared_preload_libraries = 'walpressure'
track_wal_io_timing = on
max_worker_processes = 16
shared_buffers = 512MB
listen_addresses = ''
unix_socket_directories = '$2'
unix_socket_permissions = 0700
port = $3
CONF
}

# wp_delegate_cgroup [NAME [CONTROLLER]]: cgroup CONTROLLER:/NAME created and
# delegated to the postgres user, as the README's one root command does for
# the IOPS cap's (NAME walpressure by default).  CONTROLLER defaults to the
# IO one, exported as WP_CG_CONTROLLER: blkio on cgroup v1, io on v2.
# WP_CG_CREATED says whether the group was new (1) or there before (0).
wp_delegate_cgroup() {
	local name=${1:-walpressure} ctl=${2:-} path
	if [ -d /sys/fs/cgroup/blkio ]; then
		WP_CG_CONTROLLER=blkio
	else
		WP_CG_CONTROLLER=io
	fi
	export WP_CG_CONTROLLER
	ctl=${ctl:-$WP_CG_CONTROLLER}
	if [ -d "/sys/fs/cgroup/$ctl" ]; then
		path=/sys/fs/cgroup/$ctl/$name
	else
		path=/sys/fs/cgroup/$name
	fi
	WP_CG_CREATED=1
	[ -d "$path" ] && WP_CG_CREATED=0
	cgcreate -a postgres:postgres -t postgres:postgres -g "$ctl:/$name" ||
		wp_die "could not create and delegate cgroup $ctl:/$name"
}

# Mount what the suites need in chroot $1 (/proc, /sys with the cgroup
# hierarchy, /dev with /dev/shm), as slaves: nothing unmounted in it
# propagates back.
wp_chroot_mount() {
	local root=$1 d
	for d in proc sys dev; do
		if ! grep -q " $root/$d " /proc/mounts; then
			mount --rbind "/$d" "$root/$d" && mount --make-rslave "$root/$d" ||
				wp_die "could not mount /$d in $root"
		fi
	done
}

wp_chroot_umount() {
	local root=$1 d
	for d in dev sys proc; do
		if grep -q " $root/$d " /proc/mounts; then
			umount -R "$root/$d" 2>/dev/null || umount -R -l "$root/$d"
		fi
	done
}

# The PGXN META.json validator (the pgxn_meta crate's CLI, which carries
# PGXN's Meta v1 and v2 JSON schemas), built once from crates.io into the
# cache; prints its path.  No network at test time.
wp_pgxn_meta() {
	local root=${WP_PG_CACHE:-/var/cache/walpressure}/pgxn_meta cargo
	if [ ! -x "$root/bin/pgxn_meta" ]; then
		cargo=$(command -v cargo || echo /root/.cargo/bin/cargo)
		[ -x "$cargo" ] || wp_die "cargo is needed to build the META.json validator (pgxn_meta)"
		echo "== building the META.json validator (cargo install pgxn_meta 0.7.0)" >&2
		"$cargo" install --quiet --locked pgxn_meta --version 0.7.0 --root "$root" >&2 ||
			wp_die "cargo install pgxn_meta failed"
	fi
	echo "$root/bin/pgxn_meta"
}

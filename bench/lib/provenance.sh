# shellcheck shell=bash
# bench/lib/provenance.sh: the provenance every results file starts with,
# each line read from what ran, never assumed.  Sourced by bench/lib/bench.sh.

# wb_provenance: read what this run runs on, while the bench cluster runs
# (after wb_create_extension where the bench uses walpressure), into
# $WB_STAGE/provenance.txt: walpressure's version (the cluster's extension,
# the installed control file, this tree's walpressure.control, whether this
# run built it), the git commit and whether the tree was dirty, PostgreSQL's
# server_version, its major and where it came from (wb_pg_from), the date
# the run began, the machine (CPUs, memory, kernel, the device under pg_wal)
# and its load average then, the disk models a cap can be here (whether the
# server was started with the paced disk's library), the command line.
wb_provenance() {
	local tree ext avail preload server gitl wal cpus model mem capg
	tree=$(sed -n "s/^default_version = '\(.*\)'$/\1/p" "$WB_TOP/walpressure.control")
	ext=$(q -c "SELECT extversion FROM pg_extension WHERE extname = 'walpressure'")
	avail=$(q -c "SELECT default_version FROM pg_available_extensions WHERE name = 'walpressure'")
	preload=$(q -c 'SHOW shared_preload_libraries')
	server=$(q -c 'SHOW server_version')
	gitl=${WB_OUTER_GIT:-$(wb_git_line)}
	wal=${WB_OUTER_WAL:-$(wb_wal_device "$data/pg_wal")}
	cpus=$(nproc)
	model=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
	mem=$(awk '/^MemTotal/ { printf "%.1f GB", $2 / 1048576 }' /proc/meminfo)
	capg=""
	[ -n "${WB_CG_CONTROLLER:-}" ] && capg="; the cap in cgroup $WB_CG_CONTROLLER:/$WB_CGROUP"
	{
		if [ -n "$ext" ]; then
			echo "# walpressure: $ext (the extension in the bench's cluster); installed control file $avail, this tree's walpressure.control $tree; $WB_BUILT; shared_preload_libraries '$preload'"
		else
			echo "# walpressure: not created in the bench's cluster; installed control file ${avail:-none}, this tree's walpressure.control $tree; $WB_BUILT; shared_preload_libraries '$preload'"
		fi
		echo "# git: $gitl"
		echo "# PostgreSQL: $server (server_version of the bench's cluster); major $PG_MAJOR, pg_config $PG_CONFIG: $(wb_pg_from)"
		echo "# date: $(date -u -d "@$WB_STARTED" '+%Y-%m-%d %H:%M UTC') (the run began)"
		echo "# machine: $cpus CPUs (${model:-model unknown}), $mem of memory, kernel $(uname -r), pg_wal on $wal$capg"
		echo "# load average when the run began: $WB_LOAD (1, 5, 15 min; /proc/loadavg), on $cpus CPUs"
		echo "# disk models: $(wb_disk_line "$ext")"
		echo "# command: $WB_CMD"
		[ "$WB_QUICK" = 1 ] && echo "# SMOKE RUN (WP_BENCH_QUICK=1): durations, rounds and data shrunk to prove the script runs; not results"
	} >"$WB_STAGE/provenance.txt"
	return 0
}

# wb_disk_line EXTVERSION: whether the bench's server was started with the
# paced disk's library (its postmaster maps walpressure_pacer.so), what
# walpressure.iops_cap says of it where the extension is created, and so
# what a cap is here.
wb_disk_line() {
	local said=""
	[ -n "$1" ] && said=$(q -c "SELECT pacer FROM walpressure.iops_cap" 2>/dev/null) && said="; walpressure.iops_cap's pacer: $said"
	if [ -n "${WB_PM_PID:-}" ] && wb_pacer_loaded "$WB_PM_PID"; then
		echo "the server was started with walpressure_pacer.so (LD_PRELOAD $(wb_pacer_lib))$said: a cap is the paced disk, or the cgroup's throttle where a call says disk => 'throttle'"
	else
		echo "the server was started without walpressure_pacer.so$said: a cap is the cgroup's throttle (100 ms slices)"
	fi
}

# wb_wal_device PATH: the device and file system PATH is on (in a chroot
# the run outside reads it: findmnt finds no mount of the chroot's paths).
wb_wal_device() {
	local src fstype rota
	read -r src fstype <<<"$(findmnt -no SOURCE,FSTYPE -T "$1")"
	rota=$(lsblk -ndo ROTA "$src" 2>/dev/null | tr -d ' ') || true
	case $rota in 0) rota=", not rotational" ;; 1) rota=", rotational" ;; *) rota="" ;; esac
	echo "${src:-unknown} (${fstype:-?}$rota)"
}

# wb_git_line: this tree's git commit and whether it differs from it.  What
# benches write (bench/results/, and docs/ that their tools refresh) is not
# code: a tree where only those differ (an earlier bench of the same tree)
# reads "code clean", with them named.
wb_git_line() {
	local head branch changed dirty written gitl
	if head=$(git -C "$WB_TOP" rev-parse HEAD 2>/dev/null); then
		branch=$(git -C "$WB_TOP" rev-parse --abbrev-ref HEAD)
		changed=$(git -C "$WB_TOP" status --porcelain | awk '{ print $NF }')
		dirty=$(grep -vE '^(bench/results|docs)/' <<<"$changed")
		written=$(grep -E '^(bench/results|docs)/' <<<"$changed")
		if [ -z "$dirty" ] && [ -z "$written" ]; then
			gitl="commit $head ($branch), tree clean"
		elif [ -z "$dirty" ]; then
			gitl="commit $head ($branch), code clean: only results and docs written since differ ($(wc -l <<<"$written") file(s):"
			gitl="$gitl $(head -n 5 <<<"$written" | paste -sd ' ' -)$([ "$(wc -l <<<"$written")" -gt 5 ] && echo " ...")"
			gitl="$gitl)"
		else
			dirty=$changed
			gitl="commit $head ($branch), tree DIRTY: $(wc -l <<<"$dirty") file(s) differ from it (git status):"
			gitl="$gitl $(head -n 5 <<<"$dirty" | paste -sd ' ' -)"
			[ "$(wc -l <<<"$dirty")" -gt 5 ] && gitl="$gitl ..."
		fi
	else
		gitl="not a git checkout: no commit to name"
	fi
	echo "$gitl"
}

# wb_pg_from: where the PostgreSQL of PG_CONFIG came from, as its files say:
# the chroot it runs in (said by the run outside it, wb_chroot_run); the
# stamp of test/pg-major's build in a directory above its bindir (a copy
# elsewhere keeps it); the Debian package that owns its pg_config; or, for
# a copy of a package's files, the package whose postgres it is byte for
# byte.
wb_pg_from() {
	local d=$PGBIN pkg deb
	if [ -n "${WB_OUTER_PG_FROM:-}" ]; then
		echo "$WB_OUTER_PG_FROM"
		return 0
	fi
	while [ "$d" != / ]; do
		d=$(dirname "$d")
		if [ -f "$d/.complete" ]; then
			echo "test/pg-major's build, its stamp $d/.complete: $(head -n 1 "$d/.complete")"
			return 0
		fi
	done
	if pkg=$(dpkg-query -S "$PG_CONFIG" 2>/dev/null); then
		pkg=${pkg%%:*}
		echo "Debian's package $pkg $(dpkg-query -W -f='${Version}' "$pkg")"
		return 0
	fi
	deb=/usr/lib/postgresql/$PG_MAJOR/bin/postgres
	if cmp -s "$PGBIN/postgres" "$deb" && pkg=$(dpkg-query -S "$deb" 2>/dev/null); then
		pkg=${pkg%%:*}
		echo "a copy of Debian's package $pkg $(dpkg-query -W -f='${Version}' "$pkg") (its postgres is $deb byte for byte)"
		return 0
	fi
	echo "no build stamp or Debian package names it"
}

# wb_header TITLE: the first lines of the text results: the title, the
# provenance, the time the run took.  With WB_REPORT_ONLY=1 (a script's
# --report, which writes the results again from the last run's figures),
# also the command that did.
wb_header() {
	echo "# $1"
	cat "$WB_STAGE/provenance.txt"
	if [ "${WB_REPORT_ONLY:-0}" = 1 ]; then
		cat "$WB_STAGE/took.txt"
		echo "# report written again from that run's figures by: $WB_CMD, $(date -u '+%Y-%m-%d %H:%M UTC')"
	else
		local took=$(($(date +%s) - WB_STARTED))
		echo "# took: $((took / 60)) min $((took % 60)) s" | tee "$WB_STAGE/took.txt"
	fi
}

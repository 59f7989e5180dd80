#!/bin/bash
# SPDX-License-Identifier: MIT
# A real LAVA lab on this machine: lava-server (its scheduler, its REST and
# XML-RPC API under gunicorn, PostgreSQL) and WORKERS lava-worker processes,
# each driving its own QEMU device under TCG, from Debian bookworm's
# packages in a chroot (scripts/testbed/chroot.sh lab), on loopback, without
# systemd: scripts/lava/lab-init.sh starts each daemon in the chroot.
#
#   scripts/lava/lab-up.sh [--dir DIR] [--port PORT] [--workers N]
#
# PORT (default 8078) is the API's, PORT+1 lava-publisher's, both on
# 127.0.0.1.
# Everything is under DIR (default build/lab; root-only): root/ the lab's
# copy of the chroot (its database and logs inside), state/ the tokens
# (admin.token, worker-N.token), logs and the pids, share/ the files jobs
# boot (file:// URLs: it is mounted at the same path in the chroot),
# lab.pid the supervisor. A second lab-up reuses DIR: a lab that is up is
# left as it is, one that is down is started on its database. Prints the
# lab's URL; a lab that does not come up is taken down again
# (scripts/lava/lab-down.sh) and the last lines of its log are shown.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DIR=${LATCTL_LAB_DIR:-$ROOT/build/lab}
PORT=8078
WORKERS=2

die() { echo "lab-up: $*" >&2; exit 1; }

usage() {
	echo "usage: $0 [--dir DIR] [--port PORT] [--workers N]" >&2
	exit 2
}

parse() {
	while [ $# -gt 0 ]; do
		case $1 in
		--dir) DIR=${2:?}; shift 2 ;;
		--port) PORT=${2:?}; shift 2 ;;
		--workers) WORKERS=${2:?}; shift 2 ;;
		*) usage ;;
		esac
	done
	case $PORT in '' | *[!0-9]*) die "--port '$PORT' is not a port number" ;; esac
	case $WORKERS in [1-9]) ;; *) die "--workers '$WORKERS': give 1 to 9" ;; esac
	[ "$(id -u)" = 0 ] || die "run it as root (it starts daemons in a chroot)"
}

# DIR is a directory only root can write, no symbolic link, and so is
# the directory it is in: nobody else can put a path of theirs there.
safe_dir() {
	local d=$1 up p
	up=$(dirname "$d")
	mkdir -p "$up"
	[ -d "$d" ] || [ -L "$d" ] || mkdir -m 0700 "$d"
	for p in "$up" "$d"; do
		[ ! -L "$p" ] || die "$p is a symbolic link: give a directory only root can write"
		[ "$(stat -c %u "$p")" = 0 ] && [ -z "$(find "$p" -maxdepth 0 -perm /022)" ] ||
			die "$p is not root's or other users can write it: give a directory only root can write"
	done
	chmod 0700 "$d"
	DIR=$(cd "$d" && pwd -P)
}

# The lab answers: its supervisor is alive and its API is up.
lab_running() {
	local pid
	pid=$(cat "$DIR/lab.pid" 2>/dev/null) || return 1
	kill -0 "$pid" 2>/dev/null && [ -s "$DIR/state/ready" ] &&
		curl -sf -o /dev/null --max-time 5 "$(cat "$DIR/state/ready")/api/v0.2/devicetypes/"
}

# The lab's copy of the chroot, made once.
make_root() {
	local src
	[ -f "$DIR/root/.latctl-lab" ] && return 0
	src=$("$ROOT/scripts/testbed/chroot.sh" lab) || die "the lab's chroot could not be made"
	echo "lab-up: copying the chroot $src to $DIR/root" >&2
	rm -rf "$DIR/root.tmp" "$DIR/root"
	cp -a "$src" "$DIR/root.tmp"
	mv "$DIR/root.tmp" "$DIR/root"
	touch "$DIR/root/.latctl-lab"
}

# The ports are nobody's yet: PORT (the API) and PORT+1 (lava-publisher).
port_free() {
	! ss -Hltn "( sport = :$PORT or sport = :$((PORT + 1)) )" | grep -q .
}

# The supervisor, in its own session and mount namespace: /dev, /proc,
# /sys, the state directory as /lab and share/ at its own path.
start() {
	local r=$DIR/root
	install -m 0755 "$ROOT/scripts/lava/lab-init.sh" "$r/usr/local/sbin/latctl-lab-init"
	mkdir -p "$DIR/state" "$DIR/share"
	chmod 0700 "$DIR/state" "$DIR/share"
	install -m 0644 "$ROOT/scripts/lava/qemu-tcg.jinja2" "$DIR/state/qemu-tcg.jinja2"
	mkdir -p "$r/lab" "$r$DIR/share"
	# shellcheck disable=SC2016
	setsid unshare -m --propagation private bash -euc '
		dir=$1 r=$1/root; shift
		mount --rbind /dev "$r/dev"
		mount -t proc proc "$r/proc"
		mount --rbind /sys "$r/sys"
		mount --bind "$dir/state" "$r/lab"
		mount --bind "$dir/share" "$r$dir/share"
		exec chroot "$r" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
			LC_ALL=C.UTF-8 /usr/local/sbin/latctl-lab-init "$@"' lab "$DIR" "$PORT" "$WORKERS" \
		</dev/null >"$DIR/lab.log" 2>&1 &
	echo $! >"$DIR/lab.pid"
}

# Wait for the supervisor's "ready"; on failure, its log and lab-down.
wait_ready() {
	local pid t
	pid=$(cat "$DIR/lab.pid")
	for t in $(seq 600); do
		[ -s "$DIR/state/ready" ] && return 0
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.5
	done
	tail -n 15 "$DIR/lab.log" | sed 's/^/lab-up:   /' >&2
	"$ROOT/scripts/lava/lab-down.sh" --dir "$DIR" >&2 || true
	die "the lab did not come up in $((t / 2)) s (log: $DIR/lab.log)"
}

main() {
	parse "$@"
	safe_dir "$DIR"
	if lab_running; then
		echo "lab-up: the lab in $DIR is up" >&2
		cat "$DIR/state/ready"
		return 0
	fi
	"$ROOT/scripts/lava/lab-down.sh" --dir "$DIR" >/dev/null 2>&1 || true
	port_free || die "127.0.0.1:$PORT or $((PORT + 1)) is taken by another program: give --port"
	make_root
	start
	wait_ready
	echo "lab-up: $(cat "$DIR/state/ready") with $WORKERS worker(s); token: LATCTL_LAVA_TOKEN_FILE=$DIR/state/admin.token" >&2
	cat "$DIR/state/ready"
}

main "$@"

#!/bin/bash
# SPDX-License-Identifier: MIT
# Stop the LAVA lab of scripts/lava/lab-up.sh: every process it started
# (the supervisor's session, then any process whose root is the lab's
# chroot: a QEMU a worker left behind), and check that none is left and
# that its ports are free. The lab's state stays in DIR for the next lab-up;
# --purge removes DIR too.
#
#   scripts/lava/lab-down.sh [--dir DIR] [--purge]
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DIR=${LATCTL_LAB_DIR:-$ROOT/build/lab}
PURGE=0

die() { echo "lab-down: $*" >&2; exit 1; }

while [ $# -gt 0 ]; do
	case $1 in
	--dir) DIR=${2:?}; shift 2 ;;
	--purge) PURGE=1; shift ;;
	*) echo "usage: $0 [--dir DIR] [--purge]" >&2; exit 2 ;;
	esac
done
[ "$(id -u)" = 0 ] || die "run it as root"
[ -d "$DIR" ] || { echo "lab-down: no lab in $DIR" >&2; exit 0; }
DIR=$(cd "$DIR" && pwd -P)

# The pids of processes in the supervisor's session (exiting ones too) and
# of those whose root directory is the lab's chroot.
in_lab() {
	local p r
	[ -z "$SID" ] || pgrep -s "$SID" || true
	for p in /proc/[0-9]*; do
		r=$(readlink "$p/root" 2>/dev/null) || continue
		[ "$r" = "$DIR/root" ] && echo "${p#/proc/}"
	done
	return 0
}

# Signal $1 to the supervisor's session and to every process in the lab.
signal_all() {
	[ -n "$SID" ] && kill "-$1" -- "-$SID" 2>/dev/null
	# shellcheck disable=SC2046
	[ -z "$(in_lab)" ] || kill "-$1" $(in_lab) 2>/dev/null
	return 0
}

# Wait up to $1 tenths of a second for the lab to have no process.
gone_within() {
	for _ in $(seq "$1"); do
		[ -z "$(in_lab)" ] && return 0
		sleep 0.1
	done
	[ -z "$(in_lab)" ]
}

SID=$(cat "$DIR/lab.pid" 2>/dev/null) || SID=""
case $SID in *[!0-9]*) SID="" ;; esac
port=$(sed -n 's|^http://127.0.0.1:\([0-9]*\)$|\1|p' "$DIR/state/ready" 2>/dev/null || true)
signal_all TERM
gone_within 300 || { signal_all KILL; gone_within 50; } ||
	die "processes of the lab are left: $(in_lab | tr '\n' ' ')"
rm -f "$DIR/lab.pid" "$DIR/state/ready" "$DIR/state/pids"
if [ -n "$port" ] && ss -Hltn "( sport = :$port or sport = :$((port + 1)) )" | grep -q .; then
	die "port $port or $((port + 1)) is still taken"
fi
if [ "$PURGE" = 1 ]; then
	rm -rf --one-file-system "$DIR"
	echo "lab-down: $DIR removed" >&2
else
	echo "lab-down: the lab in $DIR is down; its state stays there" >&2
fi

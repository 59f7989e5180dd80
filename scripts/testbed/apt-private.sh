# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# Private apt tree for downloading Debian packages without touching the
# host's apt configuration. Sourced (bash) by kernel-fetch.sh and
# debug-kernel.sh; the caller sets APTDIR and defines die().
#
#   apt_setup; apt_update; apt_private apt-get -t SUITE download PKG...

MIRROR=${LATMON_DEBIAN_MIRROR:-http://deb.debian.org/debian}
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

# Write the private apt tree: sources list, empty dpkg status, state, cache.
apt_setup() {
	mkdir -p "$APTDIR"/{state/lists/partial,cache/archives/partial,prefs.d}
	cat >"$APTDIR/sources.list.tmp" <<-EOT
	deb [signed-by=$KEYRING] $MIRROR bookworm main
	deb [signed-by=$KEYRING] $MIRROR bookworm-backports main
	deb [signed-by=$KEYRING] $MIRROR trixie main
	deb [signed-by=$KEYRING] $MIRROR trixie-backports main
	EOT
	mv "$APTDIR/sources.list.tmp" "$APTDIR/sources.list"
	: >"$APTDIR/state/status"
	[ -r "$KEYRING" ] || die "$KEYRING missing: install debian-archive-keyring"
}

# apt-get/apt-cache with every path pointing into the private tree.
apt_private() {
	local tool=$1
	shift
	"$tool" -q \
		-o Dir::Etc::SourceList="$APTDIR/sources.list" \
		-o Dir::Etc::SourceParts=/dev/null \
		-o Dir::Etc::Preferences=/dev/null \
		-o Dir::Etc::PreferencesParts="$APTDIR/prefs.d" \
		-o Dir::State="$APTDIR/state" \
		-o Dir::State::status="$APTDIR/state/status" \
		-o Dir::Cache="$APTDIR/cache" \
		-o Debug::NoLocking=1 \
		-o APT::Sandbox::User=root \
		"$@"
}

# Refresh the private package lists at most once per run.
apt_update() {
	apt_private apt-get update >"$APTDIR/update.log" 2>&1 ||
		{ cat "$APTDIR/update.log" >&2; die "apt-get update failed (is $MIRROR reachable?)"; }
}

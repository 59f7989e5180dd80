#!/bin/bash
# SPDX-License-Identifier: MIT
# scripts/deps.sh against a fake dpkg-query and apt-get on PATH: a package
# with pending triggers counts as installed; each set asks for its own
# packages only (make run's BPF path needs no QEMU); LATCTL_NO_INSTALL=1
# names what is missing and installs nothing; a package manager holding the
# lock is waited for, said once; without apt the packages are named.
. "$(dirname "$0")/engine.sh"

D=$TESTS_DIR/scripts/deps.sh
F=$TMPD/fake
mkdir -p "$F"
# dpkg-query: the status of $TMPD/status.PKG, else installed
cat > "$F/dpkg-query" <<EOT
#!/bin/sh
for a; do p=\$a; done
cat "$TMPD/status.\$p" 2>/dev/null || printf installed
EOT
# apt-get: logs its arguments; fails with apt's lock message while
# $TMPD/locked holds a number above 0 (counted down)
cat > "$F/apt-get" <<EOT
#!/bin/sh
echo "apt-get \$*" >> "$TMPD/apt.log"
n=\$(cat "$TMPD/locked" 2>/dev/null || echo 0)
if [ "\$n" -gt 0 ]; then
	echo \$((n - 1)) > "$TMPD/locked"
	echo "E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 4242 (apt-get)" >&2
	exit 100
fi
exit 0
EOT
chmod +x "$F/dpkg-query" "$F/apt-get"
RUN="PATH=$F:\$PATH"

check "everything present: nothing installed" "$RUN $D" 0 '^deps: all [0-9]+ packages present$'
printf triggers-pending > "$TMPD/status.man-db"
check "a package with pending triggers counts as installed" "$RUN $D" 0 \
	'^deps: all [0-9]+ packages present$'
ok "... and apt-get was not called" test ! -e "$TMPD/apt.log"
printf not-installed > "$TMPD/status.qemu-system-x86"
check "the build set does not ask for QEMU" "$RUN $D build" 0 '^deps: all [0-9]+ packages present$'
check "the vm set does" "LATCTL_NO_INSTALL=1 $RUN $D vm" 0 \
	'^deps: LATCTL_NO_INSTALL=1: not installing the missing: qemu-system-x86$'
ok "... LATCTL_NO_INSTALL=1 called no apt-get" test ! -e "$TMPD/apt.log"
echo 2 > "$TMPD/locked"
SECONDS=0
check "another package manager holds the lock: waited for, said once" \
	"LATCTL_APT_RETRY=1 $RUN $D vm 2>&1" 0 'waiting for it \(up to 300 s\)'
ok "... said once" test "$(printf '%s\n' "$OUT" | grep -c 'waiting for it')" = 1
ok "... then installed it, asking dpkg to wait too" \
	grep -q 'apt-get -o DPkg::Lock::Timeout=300 install -y -q --no-install-recommends  *qemu-system-x86$' "$TMPD/apt.log"
rm -f "$TMPD/apt.log"; echo 100 > "$TMPD/locked"
check "a lock held past LATCTL_APT_LOCK_WAIT: apt's line, exit 1" \
	"LATCTL_APT_RETRY=1 LATCTL_APT_LOCK_WAIT=2 $RUN $D vm" 1 'Could not get lock'
check_err "an unknown set" "$D bogus" 2 "^deps: unknown set 'bogus'"
mkdir -p "$TMPD/noapt"
for t in sh cat printf sort wc id echo; do ln -sf "$(command -v $t)" "$TMPD/noapt/$t"; done
check "no apt: the packages named, exit 0" "PATH=$TMPD/noapt /bin/sh $D build" 0 \
	'^deps: no apt here: install these with your package manager if missing: .*libnl-genl-3-dev'
done_testing

#!/bin/sh
# SPDX-License-Identifier: MIT
# shellcheck shell=dash
# /init of the ramdisk a LAVA job boots (scripts/lava/lava-ramdisk.sh): mounts
# the pseudo file systems, loads the block and file-system modules that LAVA's
# test disk needs (the disk labelled LAVA that holds the test overlay),
# loads latmon, writes /usr/bin/latctl-lab-step (the command of a lab
# bisect's job), then gives LAVA a root shell on the console.

export PATH=/usr/bin:/usr/sbin:/bin:/sbin HOME=/root TERM=dumb
# Progress lines would fill the job log: LAVA reads a serial console.
export LATCTL_PROGRESS=0

. /lib/guest-mounts.sh
mount_all latctl-lava

# /dev/disk/by-uuid/UUID for each disk holding an ext2/3/4 file system: LAVA
# mounts its test disk by that path, and there is no udev here.
link_uuids() {
	local d magic u n=0
	while [ ! -b /dev/vda ] && [ $n -lt 50 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	mkdir -p /dev/disk/by-uuid
	for d in /dev/vd? /dev/sd?; do
		[ -b "$d" ] || continue
		magic=$(od -An -tx1 -j1080 -N2 "$d" 2>/dev/null | tr -d ' \n')
		[ "$magic" = 53ef ] || continue
		u=$(od -An -tx1 -j1128 -N16 "$d" | tr -d ' \n' |
			sed 's/^\(.\{8\}\)\(.\{4\}\)\(.\{4\}\)\(.\{4\}\)/\1-\2-\3-\4-/')
		ln -sf "$d" "/dev/disk/by-uuid/$u"
		echo "lava-init: $d is /dev/disk/by-uuid/$u"
	done
}

if [ -f /lib/modules/extra.order ]; then
	while read -r m; do
		insmod "/lib/modules/extra/$m" || echo "lava-init: $m did not load"
	done </lib/modules/extra.order
fi
link_uuids
insmod /lib/modules/latmon.ko || echo "lava-init: latmon did not load: latctl uses another backend"
# latctl-lab-step WORKLOAD [OPTIONS]: one boot's runs for a bisect step
# on a lab (scripts/bisect/bisect-step.sh --lab): the result printed
# between the markers scripts/lava/lava-results.pl reads, then its exit.
cat >/usr/bin/latctl-lab-step <<'EOF'
#!/bin/sh
out=/tmp/latctl-step.json
rm -f "$out"
latctl run "$@" --quiet --json "$out"
rc=$?
if [ -s "$out" ]; then
	echo "LATCTL-RESULT-BEGIN step.json"
	gzip -c "$out" | base64
	echo "LATCTL-RESULT-END"
fi
echo "latctl-lab-step: exit $rc"
EOF
chmod 0755 /usr/bin/latctl-lab-step
echo "lava-init: $(uname -r) ready"
export PS1='latctl-lava# '
while :; do
	setsid cttyhack sh -l
done

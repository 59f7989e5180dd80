#!/bin/bash
# SPDX-License-Identifier: MIT
# make check-lava: LAVA's own dispatcher runs latctl's job on this machine
# and its results are checked (TAP).
#
#   scripts/lava/check-lava.sh [KERNEL [WORK]]     (default 6.12, build/lava)
#
# 1. the lava chroot (scripts/testbed/chroot.sh lava: bookworm with
#    lava-dispatcher 2023.01 and QEMU), the ramdisk of KERNEL
#    (scripts/lava/lava-ramdisk.sh) and lava-server's device-type templates;
# 2. the device dictionary scripts/lava/qemu-tcg.jinja2 rendered with them,
#    and tests/lava/qemu-job.yaml filled in: file:// URLs of the kernel and
#    the ramdisk, this repository at HEAD (commit first: the job clones it);
# 3. lava-run runs the job (libguestfs writes LAVA's test disk, QEMU under
#    TCG boots the kernel, the test shell runs tests/lava/latctl/latctl.yaml);
# 4. from LAVA's own log (WORK/job.log): the job finished, every workload's
#    test cases are there with their measurements and units, each has a
#    verdict, and the result files come back out and read as results.
. "$(dirname "$0")/../../tests/cli/engine.sh"

KERNEL=${1:-6.12}
WORK=${2:-$TESTS_DIR/build/lava}
ROOT=$TESTS_DIR
RUNS=${LATCTL_LAVA_RUNS:-2}
WORKLOADS="grow chase mmap"
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)

git -C "$ROOT" diff --quiet HEAD -- tests/lava 2>/dev/null ||
	echo "# tests/lava has uncommitted changes: the job runs HEAD's"

# The chroot, the ramdisk, the kernel.
ok "the lava chroot (lava-dispatcher, QEMU)" \
	bash -c "'$ROOT/scripts/testbed/chroot.sh' lava > '$WORK/chroot.path'"
ok "the ramdisk of $KERNEL with latctl, latmon and the test disk's modules" \
	"$ROOT/scripts/lava/lava-ramdisk.sh" --kernel "$KERNEL" --out "$WORK/ramdisk.cpio.gz"
eval "$("$ROOT/scripts/testbed/kernel-fetch.sh" --env "$KERNEL")"

# run_lava CMD...: CMD in the chroot, with the repository and WORK mounted.
run_lava() {
	"$ROOT/scripts/testbed/chroot.sh" lava --run "$ROOT" "$WORK" "$(dirname "$VMLINUZ")" -- "$@"
}

# lava-server's device-type templates (only its package's files, unpacked).
if [ ! -f "$WORK/device-types/qemu.jinja2" ]; then
	run_lava sh -c "cd '$WORK' && rm -rf srv && mkdir srv && cd srv && apt-get -q download lava-server >/dev/null &&
		dpkg-deb -x lava-server_*.deb x && rm -rf ../device-types &&
		cp -r x/usr/share/lava-server/device-types ../device-types" >"$WORK/device-types.log" 2>&1
fi
ok "lava-server's device types" test -f "$WORK/device-types/qemu.jinja2"
run_lava python3 -c "
import jinja2
env = jinja2.Environment(loader=jinja2.FileSystemLoader(['$WORK/device-types', '$ROOT/scripts/lava']),
			 trim_blocks=True, autoescape=False)
open('$WORK/device.yaml', 'w').write(env.get_template('qemu-tcg.jinja2').render())
" >"$WORK/device.log" 2>&1
check "the device dictionary renders: qemu under TCG, the test disk on virtio" \
	"cat $WORK/device.yaml" 0 'interface: virtio'
ok "... and no KVM" bash -c "grep -q 'accel tcg' '$WORK/device.yaml' && ! grep -q enable-kvm '$WORK/device.yaml'"

REV=$(git -C "$ROOT" rev-parse HEAD)
sed -e "s|@KREL@|$KREL|" -e "s|@KERNEL_URL@|file://$VMLINUZ|" \
	-e "s|@RAMDISK_URL@|file://$WORK/ramdisk.cpio.gz|" -e "s|@REPOSITORY@|$ROOT|" \
	-e "s|@REVISION@|$REV|" -e "s|@RUNS@|$RUNS|" "$ROOT/tests/lava/qemu-job.yaml" >"$WORK/job.yaml"
ok "the job names no @PLACEHOLDER@" bash -c "! grep -v '^#' '$WORK/job.yaml' | grep -q '@[A-Z_]*@'"

# 3. lava-run.
rm -rf "$WORK/out"
start=$SECONDS
run_lava env LIBGUESTFS_BACKEND=direct LIBGUESTFS_BACKEND_SETTINGS=force_tcg HOME=/root \
	lava-run --job-id 1 --output-dir "$WORK/out" --device "$WORK/device.yaml" "$WORK/job.yaml" \
	>"$WORK/job.log" 2>&1
rc=$?
echo "# lava-run: exit $rc after $((SECONDS - start)) s; log $WORK/job.log"
ok "lava-run completed the job (exit 0)" [ "$rc" = 0 ]
check "LAVA's job result is pass" "grep -F '\"case\": \"job\"' $WORK/job.log" 0 '"result": "pass"'

# 4. The results, from LAVA's log.
R=$ROOT/scripts/lava/lava-results.pl
"$R" "$WORK/job.log" >"$WORK/cases.txt" 2>&1
sed 's/^/# /' "$WORK/cases.txt" | head -n 60
for wl in $WORKLOADS; do
	check "$wl: the run passed" "cat $WORK/cases.txt" 0 "^latctl $wl pass\$"
	for m in p50 p99 p99_9 max; do
		check "$wl: ${wl}_$m with its measurement in ns" "cat $WORK/cases.txt" 0 \
			"^latctl ${wl}_$m pass [0-9.e+-]+ ns\$"
	done
	check "$wl: faults per iteration" "cat $WORK/cases.txt" 0 "^latctl ${wl}_faults_per_iter pass [0-9.e+-]+ faults\$"
	check "$wl: the primary cause's share" "cat $WORK/cases.txt" 0 "^latctl ${wl}_primary_share pass [0-9.e+-]+ %\$"
	check "$wl: $RUNS runs behind each median" "cat $WORK/cases.txt" 0 "^latctl ${wl}_runs pass $RUNS(\\.0)? runs\$"
	# skip is latctl check's "cannot tell", e.g. events lost under emulation
	check "$wl: a verdict from latctl check" "cat $WORK/cases.txt" 0 "^latctl ${wl}_check (pass|fail|skip)\$"
done
check "grow's verdict is pass or fail" "cat $WORK/cases.txt" 0 '^latctl grow_check (pass|fail)$'
grep -h 'latctl check: ' "$WORK/job.log" | sed 's/.*"msg": "//; s/"}$//; s/^/# /'
check "latmon recorded: fault times are there" "cat $WORK/cases.txt" 0 '^latctl grow_fault_p50 pass [0-9.e+-]+ ns$'
check "the result files come back out of LAVA's log" "$R --json $WORK/json $WORK/job.log" 0 'json/mmap\.json'
for wl in $WORKLOADS; do
	check "$wl.json reads as a result (latctl report)" "$LATCTL report $WORK/json/$wl.json" 0 'cause'
done
done_testing

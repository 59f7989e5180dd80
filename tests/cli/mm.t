#!/bin/bash
# SPDX-License-Identifier: MIT
# --thp-size, --fragment, --memcg on the command line: bad values get one
# line and exit 2; --thp-size sets a fake per-size THP directory
# ($LATCTL_SYSFS_THP) for the run and restores it after a normal run, an
# error and SIGTERM; the report and the JSON show the sizes in effect; a
# kernel without per-size settings gets one clear line. The VM groups
# tests/vm/t-36 and t-95 run all three on real kernels.
. "$(dirname "$0")/engine.sh"

L=$LATCTL
F=$TMPD/thp
reset_fake() {
	rm -rf "$F"
	mkdir -p "$F/hugepages-64kB" "$F/hugepages-2048kB" "$F/hugepages-8kB"
	echo 'always [madvise] never' >"$F/enabled"
	echo 'always defer defer+madvise [madvise] never' >"$F/defrag"
	echo 'always inherit madvise [never]' >"$F/hugepages-64kB/enabled"
	echo 'always [inherit] madvise never' >"$F/hugepages-2048kB/enabled"
	echo 'always inherit [madvise] never' >"$F/hugepages-8kB/shmem_enabled"
}
size_is() { [ "$(sed "s/.*\[\(.*\)\].*/\1/" "$F/hugepages-$1/enabled")" = "$2" ]; }

for bad in 64K 64K=sometimes 48K=always =always 64Q=always 4K=always; do
	check_err "--thp-size $bad is refused" "$L run grow --thp-size $bad" 2 \
		"--thp-size '$bad' is not valid; give SIZE=MODE"
done
for bad in 12x 512K -1 0 99999999999G; do
	check_err "--memcg $bad is refused" "$L run grow --memcg $bad" 2 \
		"--memcg '$bad' is not valid; give a size of at least 1M"
done
check_err "--thp-size nine times is refused" \
	"$L run grow $(printf -- '--thp-size 64K=never %.0s' 1 2 3 4 5 6 7 8 9)" 2 'given more than 8 times'

reset_fake
check "--thp-size 64K=always: the report shows the sizes in effect" \
	"LATCTL_SYSFS_THP=$F $L run grow --thp-size 64K=always --iters 1000 --json $TMPD/s.json" 0 \
	'mTHP sizes: 64K always, 2048K inherit$'
ok "after the run 64K is never again" size_is 64kB never
ok "the 2048K setting was not touched" size_is 2048kB inherit
check "the JSON carries the sizes in effect, a size without enabled left out" \
	"$L report $TMPD/s.json >/dev/null && tr -d ' \\n\\t' <$TMPD/s.json | grep -o '\"thp_sizes\":{[^}]*}'" 0 \
	'"thp_sizes":\{"64K":"always","2048K":"inherit"\}'

reset_fake
check_err "--thp-size of a size the kernel lacks names the sizes it has" \
	"LATCTL_SYSFS_THP=$F $L run grow --thp-size 128K=always --iters 1000" 1 \
	'--thp-size 128K: this kernel has no such size; it has 64K 2048K$'
ok "after that error 64K is still never" size_is 64kB never

reset_fake
check "--thp-size applied, then the run fails (its command, exit 3): restored" \
	"LATCTL_SYSFS_THP=$F $L run exec --thp-size 64K=madvise --quiet -- sh -c 'cat $F/hugepages-64kB/enabled; exit 3'" 3 \
	'^madvise$'
ok "after the failed run 64K is never again" size_is 64kB never

reset_fake
LATCTL_SYSFS_THP=$F "$L" run grow --thp-size 64K=always --iters 30000000 --quiet >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1000); do size_is 64kB always && break; sleep 0.01; done
kill -TERM "$pid"
wait "$pid"
rc=$?
ok "SIGTERM mid-run: latctl died of it (status $rc)" test "$rc" = 143
ok "after SIGTERM 64K is never again" size_is 64kB never

mkdir -p "$TMPD/old"
echo 'always [madvise] never' >"$TMPD/old/enabled"
check_err "--thp-size on a kernel without per-size settings: one clear line" \
	"LATCTL_SYSFS_THP=$TMPD/old $L run grow --thp-size 64K=always --iters 1000" 1 \
	'no per-size huge pages .*Linux 6.8.*run without --thp-size'
check "without them the report says so" \
	"LATCTL_SYSFS_THP=$TMPD/old $L run grow --iters 1000" 0 \
	'mTHP sizes: none in this kernel'

check_err "--memcg below what grow's loop faults in: refused with the size to give" \
	"$L run grow --memcg 16M --backend none" 2 \
	'^latctl: --memcg 16M is too small: grow \(mode grow, --iters 4000000\) faults in about 48 MiB during its loop; give --memcg 56M or more'
check_err "... reserved: the whole capacity" "$L run grow --mode reserved --iters 2000000 --memcg 16M --backend none" 2 \
	'faults in about 16 MiB during its loop; give --memcg 24M or more'
check_err "... chase cold: its table" "$L run chase --memcg 64M --backend none" 2 \
	'^latctl: --memcg 64M is too small: chase \(mode cold, --iters 1000000\) faults in about 64 MiB'
ok "... chase warm faults its table in before the loop: not refused for size" \
	bash -c "! '$L' run chase --mode warm --memcg 16M --backend none --iters 1000 2>&1 | grep -q 'too small'"

if [ "$(id -u)" != 0 ]; then
	check_err "--fragment needs root" "$L run grow --fragment --iters 1000" 1 '--fragment needs root'
fi
done_testing

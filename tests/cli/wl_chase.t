#!/bin/bash
# SPDX-License-Identifier: MIT
# chase: who pays the table's page faults. --no-thp keeps the figures
# independent of the system THP setting (a huge page would fault 512 pages
# at once).
. "$(dirname "$0")/engine.sh"

L=$LATCTL

for mode in cold warm populate; do
	check "chase --mode $mode runs 2000 iterations" \
		"$L run chase --mode $mode --no-thp --iters 2000 --json $TMPD/$mode.json > $TMPD/$mode.txt" 0 ''
done
check "cold is the default mode" "$L run chase --iters 500" 0 '^chase, mode cold: 500 iterations'
check "the table line names the mode" "cat $TMPD/warm.txt" 0 \
	'^table: 64 MiB, 16384 pages, mode warm, 8 dependent read-modify-writes per iteration'
check "the fault line is printed" "cat $TMPD/cold.txt" 0 \
	'^minor faults in the loop: [0-9]+ = [0-9.]+ per page first touched, [0-9.]+ per table page'

cold_pages=$(json_get $TMPD/cold.json extras pages_first_touched)
cold_per=$(json_get $TMPD/cold.json extras faults_per_touched_page)
cold_faults=$(json_get $TMPD/cold.json extras loop_minor_faults)
pop_faults=$(json_get $TMPD/populate.json extras loop_minor_faults)
warm_faults=$(json_get $TMPD/warm.json extras loop_minor_faults)
# 2000 x 8 random accesses reach about 10,000 of the 16,384 pages
ok "cold: the loop first touches thousands of table pages ($cold_pages)" \
	between "$cold_pages" 5000 16384
# A read then a write of fresh memory faults twice where a read maps the zero
# page and the write copies it, once where the kernel maps no zero page
# (some hosts boot with pvm_no_zero_page=1): measured here once, without
# huge pages as chase --no-thp runs (with the system's THP, which other
# tests on the box change, the read may map the huge zero page or a THP).
printf '%s\n' '#include <stdio.h>' '#include <sys/mman.h>' '#include <sys/resource.h>' \
	'static long f(void) { struct rusage r; getrusage(RUSAGE_SELF, &r); return r.ru_minflt; }' \
	'int main(void) { size_t n = 4096 * 1000, i; long a;' \
	'volatile char *p = mmap(0, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);' \
	'madvise((void *)p, n, MADV_NOHUGEPAGE);' \
	'a = f(); for (i = 0; i < n; i += 4096) { char v = p[i]; p[i] = v + 1; }' \
	'printf("%.0f\n", (f() - a) / 1000.0); return 0; }' > "$TMPD/zp.c"
per_page=2
${CC:-cc} -O1 -o "$TMPD/zp" "$TMPD/zp.c" 2>/dev/null && per_page=$("$TMPD/zp")
ok "cold: about $per_page fault(s) per page touched, as a read then a write of fresh memory takes here ($cold_per)" \
	between "$cold_per" "$((per_page * 10 - 2))e-1" "$((per_page * 10 + 2))e-1"
ok "populate: almost no fault in the loop ($pop_faults)" between "$pop_faults" 0 20
ok "warm: almost no fault in the loop ($warm_faults)" between "$warm_faults" 0 20
ok "cold faults over 100 times more than populate ($cold_faults vs $pop_faults)" \
	test "$cold_faults" -gt $((100 * pop_faults + 100))
ok "populate: every table page resident before the loop" \
	test "$(json_get $TMPD/populate.json extras resident_pages_before)" -ge 16384
ok "the core's fault counter agrees with the workload's (cold)" \
	between "$(json_get $TMPD/cold.json counters minor_faults)" "$cold_faults" $((cold_faults + 50))
ok "report FILE prints the chase lines again" \
	bash -c "'$L' report $TMPD/cold.json | diff - $TMPD/cold.txt"

check "--hugepage is shown on the table line" "$L run chase --mode populate --hugepage --iters 500" 0 \
	'mode populate \+ MADV_HUGEPAGE'
check_err "unknown mode" "$L run chase --mode hot" 2 "chase has no mode 'hot'; modes: cold\\|warm\\|populate"
check_err "--rate does not apply to chase" "$L run chase --rate 100" 2 '--rate does not apply to chase'
done_testing

# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# Faults of N fresh 4 KiB pages: exactly what getrusage counts. Sourced by suite.sh.
PAGES=1000

load
lmtool record --events faults.bin -- lmtouch --pages $PAGES >faults.out 2>&1
sed 's/^/# /' faults.out
start=$(field start <faults.out)
end=$(field end <faults.out)
minflt=$(field minflt <faults.out)
pid=$(field pid <faults.out)
inrange=$(lmtool read --events faults.bin --type fault --from "$start" --to "$end" --count | field fault)
counted=$(count_where faults.bin '$1 == "fault" && f["flags"] !~ /retry|error/')
ok "lmtouch saw exactly $PAGES minor faults (getrusage: $minflt)" [ "$minflt" = $PAGES ]
ok "one fault record per fresh page ($inrange of $PAGES)" [ "$inrange" = $PAGES ]
ok "fault records == getrusage minflt delta ($counted vs $minflt)" [ "$counted" = "$minflt" ]
check "every fault has entry < exit" \
	"count_where faults.bin '\$1 == \"fault\" && f[\"dur\"] + 0 <= 0'" 0 '^0$'
check "every event record (not lost records) belongs to the target ($pid)" \
	"! lmtool read --events faults.bin | grep -v -e ' pid=$pid tid=$pid ' -e '^lost '" 0 ''
check "per-CPU seq numbers are contiguous from 0" "seq_gaps faults.bin" 0 '^0$'

# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# THP always: M aligned 2 MiB regions give M THP clears nested in faults
# (since 6.13 with init_on_alloc: M zeroings by the page allocator instead).
# Sourced by suite.sh.
REGIONS=8

# THP clear records of $1 that lie inside a fault record of the same thread.
nested_thp() {
	lmtool read --events "$1" | kv_awk '
	$1 == "fault" { nf++; fb[nf] = f["begin"] + 0; fe[nf] = f["end"] + 0; ft[nf] = f["tid"] }
	$1 == "thp-clear" { nt++; tb[nt] = f["begin"] + 0; te[nt] = f["end"] + 0; tt[nt] = f["tid"] }
	END { for (j = 1; j <= nt; j++) for (i = 1; i <= nf; i++)
		if (ft[i] == tt[j] && fb[i] <= tb[j] && te[j] <= fe[i]) { n++; break }
	      print n + 0 }'
}
export -f nested_thp

load
set_thp always
lmtool record --events thp.bin -- lmtouch --huge $REGIONS >thp.out 2>&1
sed 's/^/# /' thp.out
start=$(field start <thp.out)
end=$(field end <thp.out)
clears=$(lmtool read --events thp.bin --type thp-clear --from "$start" --to "$end" --count | field thp-clear)
zeros=$(lmtool read --events thp.bin --type alloc-zero --count | field alloc-zero)
IFS=. read -r maj min _ <<<"$(uname -r)"
if [ "$maj" -gt 6 ] || { [ "$maj" = 6 ] && [ "$min" -ge 13 ]; } && alloc_zeroes; then
	# since 6.13 the clear is skipped when the allocator zeroed (init_on_alloc)
	ok "$REGIONS aligned 2 MiB regions: no THP clear ($clears), $REGIONS allocator zeroings ($zeros)" \
		[ "$clears" = 0 -a "$zeros" = $REGIONS ]
else
	ok "$REGIONS aligned 2 MiB regions give $REGIONS THP clears ($clears)" [ "$clears" = $REGIONS ]
fi
check "every THP clear lasts > 0 cycles" \
	"count_where thp.bin '\$1 == \"thp-clear\" && f[\"dur\"] + 0 <= 0'" 0 '^0$'
check "every THP clear is nested inside a fault of its thread" \
	"nested_thp thp.bin" 0 "^$clears\$"
check "the faults that cleared a huge page are flagged huge" \
	"count_where thp.bin '\$1 == \"fault\" && f[\"flags\"] ~ /huge/'" 0 "^$REGIONS\$"

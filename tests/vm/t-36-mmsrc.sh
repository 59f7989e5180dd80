# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# The memory-management sources on the raw records (stock boot arguments:
# init_on_alloc=1): the page allocator's zeroing of huge pages (alloc-zero)
# inside their faults, and on kernels before 6.13 a THP clear of the same
# page too; mTHP folios zeroed at their size; direct compaction inside
# huge-page faults once free memory is fragmented (lmmm --fragment, the code
# of latctl --fragment), memcg reclaim inside faults in a cgroup at its
# limit (lmmm --memcg), none without either; every setting restored and the
# cgroup removed. Sourced by suite.sh.
T=/sys/kernel/mm/transparent_hugepage

# Records of type $2 in $1 that lie inside a fault of the same thread.
nested_in_fault() {
	lmtool read --events "$1" | kv_awk -v want="$2" '
	$1 == "fault" { nf++; fb[nf] = f["begin"] + 0; fe[nf] = f["end"] + 0; ft[nf] = f["tid"] }
	$1 == want { nt++; tb[nt] = f["begin"] + 0; te[nt] = f["end"] + 0; tt[nt] = f["tid"] }
	END { for (j = 1; j <= nt; j++) for (i = 1; i <= nf; i++)
		if (ft[i] == tt[j] && fb[i] <= tb[j] && te[j] <= fe[i]) { n++; break }
	      print n + 0 }'
}
export -f nested_in_fault

# Kernel older than 6.13: the THP clear still runs after the allocator's zeroing.
clears_twice() {
	local maj min
	IFS=. read -r maj min _ <<<"$(uname -r)"
	[ "$maj" -lt 6 ] || { [ "$maj" = 6 ] && [ "$min" -lt 13 ]; }
}

load
mm_count() { lmtool read --events "$1" --type "$2" --count | field "$2"; }
alloc_zeroes || echo "# init_on_alloc is off (heap alloc:${LATMON_HEAP_INIT:-?}): no allocator zeroing expected"
check "alloc-zero resolves (or says why not)" \
	"lmtool info | grep '^source alloc-zero '" 0 'state=available .*symbol=get_page_from_freelist|state=unavailable .*reason=[^-]'

set_thp always
lmtool record --events z.bin -- lmmm 16M >z.out 2>&1
zeros=$(mm_count z.bin alloc-zero)
if ! alloc_zeroes; then
	ok "init_on_alloc=0: no allocator zeroing ($zeros)" [ "$zeros" = 0 ]
else
	ok "8 huge-page faults: 8 allocator zeroings of 2 MiB ($zeros)" [ "$zeros" = 8 ]
	check "each is 2 MiB, order 9, for init_on_alloc" \
		"count_where z.bin '\$1 == \"alloc-zero\" && !(f[\"size\"] == 2097152 && f[\"order\"] == 9 && f[\"zflags\"] ~ /^0x[15]\$/)'" 0 '^0$'
	check "each lies inside a huge-page fault of its thread" "nested_in_fault z.bin alloc-zero" 0 '^8$'
	if clears_twice; then
		check "before 6.13 the THP clear zeroes each page again: 8 clears" \
			"lmtool read --events z.bin --type thp-clear --count" 0 'thp-clear=8 '
	else
		check "since 6.13 the THP clear is skipped: no clear" \
			"lmtool read --events z.bin --type thp-clear --count" 0 'thp-clear=0 '
	fi
fi
check "without --fragment or --memcg: no compaction, no reclaim" \
	"lmtool read --events z.bin --count" 0 ' compaction=0 reclaim=0 '

if fragment_here; then
	defrag=$(sed 's/.*\[\(.*\)\].*/\1/' $T/defrag)
	proact=$(cat /proc/sys/vm/compaction_proactiveness 2>/dev/null)
	lmtool record --events c.bin -- lmmm --fragment 32M >c.out 2>&1
	sed 's/^/# /' c.out
	check "--fragment: no free 2 MiB block left" "cat c.out" 0 '"free_2m_blocks_after":0,'
	n=$(nested_in_fault c.bin compaction)
	ok "--fragment: direct compaction inside huge-page faults ($n, want >= 1)" [ "$n" -ge 1 ]
	check "--fragment: THP defrag and proactive compaction restored" \
		"sed 's/.*\[\(.*\)\].*/\1/' $T/defrag; cat /proc/sys/vm/compaction_proactiveness 2>/dev/null" \
		0 "^$defrag\$"
	[ -z "$proact" ] || check "--fragment: compaction_proactiveness back to $proact" \
		"cat /proc/sys/vm/compaction_proactiveness" 0 "^$proact\$"
else
	echo "# --fragment left out on $(uname -r) (LATMON_FRAGMENT=1 runs it): filling its memory under a loaded host soft-locked the guest"
fi
set_thp never

lmtool record --events r.bin -- lmmm --memcg 48M 32M >r.out 2>&1
sed 's/^/# /' r.out
n=$(nested_in_fault r.bin reclaim)
ok "--memcg 48M, 32 MiB touched: memcg reclaim inside faults ($n, want >= 1)" [ "$n" -ge 1 ]
check "--memcg: the reclaims are the memory cgroup's" \
	"count_where r.bin '\$1 == \"reclaim\" && f[\"kind\"] != \"memcg\"'" 0 '^0$'
check "--memcg: no OOM kill in the cgroup" "cat r.out" 0 '"oom_events":0'
check "--memcg: the cgroup is removed" "ls -d /sys/fs/cgroup/latctl-* 2>/dev/null | wc -l" 0 '^0$'

if [ -e $T/hugepages-64kB/enabled ]; then
	was=$(sed 's/.*\[\(.*\)\].*/\1/' $T/hugepages-64kB/enabled)
	lmtool record --events m.bin -- lmmm --thp-size 64K=always --step 65536 8M >m.out 2>&1
	check "--thp-size 64K=always: the sizes in effect name 64K always" "cat m.out" 0 '"64K":"always"'
	if alloc_zeroes; then
		check "--thp-size 64K=always: 128 zeroings of 64 KiB (order 4)" \
			"count_where m.bin '\$1 == \"alloc-zero\" && f[\"size\"] == 65536 && f[\"order\"] == 4'" 0 '^128$'
	fi
	check "--thp-size: hugepages-64kB/enabled restored to $was" \
		"sed 's/.*\[\(.*\)\].*/\1/' $T/hugepages-64kB/enabled" 0 "^$was\$"
else
	check "--thp-size on a kernel without mTHP: one clear line, exit 1" \
		"lmmm --thp-size 64K=always 8M" 1 'no per-size huge pages .*Linux 6.8'
fi

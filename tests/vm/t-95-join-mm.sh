# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# The join's memory-management labels on Debian's stock boot (init_on_alloc
# on): grow --thp always names huge-page zeroing (thp-zero) as the cause of
# every push that got a huge page, its zeroing split by where (page
# allocator, THP clear) adds up to the zeroing time, and before Linux 6.13
# the report names the double zeroing with its fix; --fragment gives
# compaction labels inside huge-page faults, --memcg reclaim labels, and
# without them there is neither. Sourced by suite.sh.
. "$(dirname "${BASH_SOURCE[0]}")/join-lib.sh"

# Kernel older than 6.13 (the THP clear still runs after the allocator's).
zeroes_twice() {
	local maj min
	IFS=. read -r maj min _ <<<"$(uname -r)"
	[ "$maj" -lt 6 ] || { [ "$maj" = 6 ] && [ "$min" -lt 13 ]; }
}

stock=1
alloc_zeroes || stock=0
load
ok "latctl run grow --thp always --cpu 1 with latmon" jrun mm-grow grow --thp always --cpu 1
ok "grow: the run recorded kernel events" recorded mm-grow
huge=$(jcount mm-grow 'f["thp"] == "true"')
ok "grow: $huge slow pushes got a huge page (want >= 4)" [ "$huge" -ge 4 ]
# Every push that got a huge page zeroed it, so each holds thp-zero time.
check "grow: every push that got a huge page holds thp-zero time" \
	"jcount mm-grow 'f[\"thp\"] == \"true\" && !(f[\"breakdown_ticks.thp-zero\"] > 0)'" 0 '^0$'
# Margin: more than half are primarily thp-zero. Quiet, all 11 of 11 are;
# beside two busy loops on a 2-core host 9 of 11 were (the emulator, when
# the host takes its CPU, stretches whichever part of the push was running:
# one push was then mostly fault, one mostly unexplained). Each such push
# is printed.
jwhere mm-grow 'f["thp"] == "true" && f["primary"] != "thp-zero"' >grow-other.txt
other=$(head -n1 grow-other.txt)
sed '1d; s/^/# other: /' grow-other.txt
ok "grow: more than half of the pushes that got a huge page are primarily thp-zero ($other of $huge are not)" \
	[ $((2 * other)) -lt "$huge" ]
check "grow: in each, zeroing in the allocator plus in the clear is its thp-zero time" \
	"jcount mm-grow 'f[\"thp\"] == \"true\" && f[\"parts_ticks.thp-zero.allocator\"] + f[\"parts_ticks.thp-zero.clear\"] != f[\"breakdown_ticks.thp-zero\"]'" \
	0 '^0$'
twice=$(jcause mm-grow thp-zero twice)
if [ "$stock" = 1 ] && zeroes_twice; then
	ok "grow before 6.13, init_on_alloc on: zeroed twice in every huge-page push ($twice of $huge)" \
		[ "$twice" -ge "$huge" ]
	check "grow: the report says so in one line, with the fix" \
		"latctl report mm-grow.json" 0 'thp-zero twice in [0-9]+ of [0-9]+ slow iterations \((allocator|clear) [0-9]+%, (allocator|clear) [0-9]+% of it\): .*init_on_alloc=0.*6\.13'
	check "grow: the slowest pushes' details say where" \
		"latctl report mm-grow.json" 0 'zeroed twice: 2048 KiB in the page allocator \(init_on_alloc\) [0-9]+%, in the THP clear [0-9]+%'
elif [ "$stock" = 1 ]; then
	ok "grow since 6.13: never zeroed twice ($twice)" [ "$twice" = 0 ]
	check "grow since 6.13: the zeroing is seen, in the page allocator" \
		"jcount mm-grow 'f[\"thp\"] == \"true\" && !(f[\"parts_ticks.thp-zero.allocator\"] > 0)'" 0 '^0$'
else
	ok "grow, init_on_alloc=0: never zeroed twice ($twice)" [ "$twice" = 0 ]
fi
check "grow without --fragment or --memcg: no compaction or reclaim label" \
	"jcount mm-grow 'f[\"breakdown_ticks.compaction\"] > 0 || f[\"breakdown_ticks.reclaim\"] > 0'" \
	0 '^0$'

if fragment_here; then
	ok "latctl run grow --thp always --fragment" jrun mm-frag grow --thp always --fragment --cpu 1
	check "--fragment: no free 2 MiB block when timing began" \
		"jget mm-frag mm.fragment.free_2m_blocks_after" 0 '^0$'
	# A fault that compacts for a huge page and then falls back to 4 KiB pages
	# (THP defrag lets it give up) is no "thp" push, but compacted all the same.
	n=$(jcount mm-frag 'f["breakdown_ticks.compaction"] > 0 && f["faults"] >= 1')
	ok "--fragment: $n pushes compacted inside their fault (want >= 1), $(jcount mm-frag 'f["thp"] == "true" && f["breakdown_ticks.compaction"] > 0') of them got the huge page" \
		[ "$n" -ge 1 ]
	check "--fragment: the report shows the fragmenting and names compaction" \
		"latctl report mm-frag.json" 0 'fragmented: [0-9]+ free 2 MiB blocks before, 0 after'
	check "--fragment: THP defrag restored" \
		"sed 's/.*\[\(.*\)\].*/\1/' /sys/kernel/mm/transparent_hugepage/defrag" 0 '^madvise$'
else
	echo "# --fragment left out on $(uname -r) (LATMON_FRAGMENT=1 runs it): filling its memory under a loaded host soft-locked the guest"
fi

ok "latctl run grow --memcg 160M -i 1000000" jrun mm-cg grow --memcg 160M --cpu 1 -i 1000000
n=$(jcount mm-cg 'f["breakdown_ticks.reclaim"] > 0 && f["memcg_reclaims"] >= 1')
ok "--memcg: $n pushes hold memcg reclaim (want >= 1)" [ "$n" -ge 1 ]
check "--memcg: no OOM in the cgroup, which is gone" \
	"jget mm-cg mm.memcg.oom_events; ls -d /sys/fs/cgroup/latctl-* 2>/dev/null | wc -l" 0 '^0
0$'
check "--memcg: the report shows the cgroup" \
	"latctl report mm-cg.json" 0 'memory cgroup: limit 160 MiB \(filled with 160 MiB to reclaim\), at its limit [1-9][0-9]* times, OOM 0'

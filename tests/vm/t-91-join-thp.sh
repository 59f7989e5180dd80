# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# grow with THP always: the pushes that clear a huge page are the slowest,
# mostly labelled thp-zero, each with the clear (and its fault) inside it; in mode
# reserved (capacity allocated untouched: no realloc copy in the tail) most
# of the very slowest pushes are thp-zero. Sourced by suite.sh; the guest
# boots with Debian's stock arguments, where the page allocator's zeroing
# (init_on_alloc) counts as thp-zero too.
. "$(dirname "${BASH_SOURCE[0]}")/join-lib.sh"

# thp_checks NAME WHAT: the pushes that cleared a huge page are in the top
# 0.01% and labelled thp-zero, each holding its clear and huge-page fault.
thp_checks() {
	local name=$1 what=$2 clears n p
	ok "$what: the run recorded kernel events (latmon state on)" recorded "$name"
	clears=$(jcount "$name" 'f["thp"] == "true"')
	n=$(jcount "$name" 'f["primary"] == "thp-zero"')
	p=$(jget "$name" summary.p99_99_ns)
	ok "$what: the run zeroed huge pages ($clears pushes, want at least 4)" [ "$clears" -ge 4 ]
	# A clearing push may also sleep in its fault for longer than the clear
	# (then "blocked" is its honest primary label), so not all, but most.
	ok "$what: $n pushes are primarily thp-zero (want at least 3/4 of the $clears that cleared one)" \
		[ $((4 * n)) -ge $((3 * clears)) -a "$n" -le "$clears" ]
	check "$what: every push that zeroed a huge page is slower than p99.99 ($p ns)" \
		"jcount $name 'f[\"thp\"] == \"true\" && f[\"duration_ns\"] <= $p'" 0 '^0$'
	check "$what: every thp-zero push holds a zeroing (THP clear or page allocator) and its huge-page fault" \
		"jcount $name 'f[\"primary\"] == \"thp-zero\" && !(f[\"thp_clears\"] + f[\"alloc_zeroings\"] >= 1 && f[\"faults\"] >= 1 && f[\"thp\"] == \"true\" && f[\"breakdown_ticks.thp-zero\"] > 0)'" \
		0 '^0$'
}

# top_checks NAME WHAT: of the N slowest pushes (N = huge pages cleared),
# at least half are thp-zero. Only without realloc copies in the tail:
# under TCG a copy, or the host descheduling the VM, can take as long.
top_checks() {
	local name=$1 what=$2 clears top
	clears=$(jcount "$name" 'f["thp"] == "true"')
	top=$(jtop "$name" "$clears" | grep -c '^thp-zero$')
	ok "$what: of the $clears slowest pushes, $top are labelled thp-zero (want at least half)" \
		[ $((2 * top)) -ge "$clears" ]
}

load
ok "latctl run grow --thp always with latmon" jrun grow-thp grow --thp always
thp_checks grow-thp "grow --thp always"
ok "latctl run grow --mode reserved --thp always with latmon" \
	jrun grow-res grow --mode reserved --thp always
thp_checks grow-res "grow --mode reserved --thp always"
top_checks grow-res "grow --mode reserved --thp always"

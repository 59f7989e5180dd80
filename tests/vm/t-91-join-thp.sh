# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# grow with THP always: the slowest pushes are labelled thp-zero, and each
# has the huge-page clear (and its fault) inside it. Sourced by suite.sh.
# Mode reserved: the vector's capacity is allocated untouched, so the slow
# pushes are first touches (in mode grow the slowest are the realloc copies).
. "$(dirname "${BASH_SOURCE[0]}")/join-lib.sh"

load
ok "latctl run grow --mode reserved --thp always with latmon" \
	jrun grow-thp grow --mode reserved --thp always --iters 4000000
ok "the run recorded kernel events (latmon state on)" recorded grow-thp
clears=$(jcause grow-thp thp-zero own_count)
thp_top=$(jtop grow-thp "$clears" | grep -c '^thp-zero$')
ok "the run cleared huge pages ($clears, want at least 4)" [ "$clears" -ge 4 ]
ok "of the $clears slowest pushes, $thp_top are labelled thp-zero (want at least half)" \
	[ $((2 * thp_top)) -ge "$clears" ]
ok "thp-zero is the primary label of $(jcount grow-thp 'f["primary"] == "thp-zero"') slow pushes (want at least half of $clears)" \
	[ $((2 * $(jcount grow-thp 'f["primary"] == "thp-zero"'))) -ge "$clears" ]
check "every thp-zero push has a THP clear and a huge-page fault inside it" \
	"jcount grow-thp 'f[\"primary\"] == \"thp-zero\" && !(f[\"thp_clears\"] >= 1 && f[\"faults\"] >= 1 && f[\"thp\"] == \"true\" && f[\"breakdown_ticks.thp-zero\"] > 0)'" \
	0 '^0$'

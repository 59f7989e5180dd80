#!/bin/bash
# SPDX-License-Identifier: MIT
# make check-bisect: bisect a real Linux tree end to end, as TAP. Debian's
# linux-source 6.12 (scripts/bisect/linux-tree.sh) gets a planted history:
#   c1  Debian's source (good)           c7  a documentation change
#   c2  a documentation change           c8  a MAINTAINERS change (bad end)
#   c3  every new anonymous page zeroed  c9  the extra zeroing removed (the fix)
#       8 more times (the regression)    c10 a documentation change
#   c4  mm/memory.c does not build       c11 a documentation change
#   c5  it builds again
#   c6  a README change
# git bisect run with scripts/bisect/bisect-step.sh (Debian's configuration
# trimmed to the test bed), as the README prints it (--baseline good.json
# -- grow --no-thp: the defaults judge the time of a 4 KiB fault, fault:p50,
# on 5 runs a boot, up to 3 boots), must name c3 as the first bad commit
# and skip c4 (125) without judging it, in each of BISECT_ROUNDS rounds
# (default 3, each with its own baseline); run again for an improvement
# over c8..c11 (terms slow/fast, --repeat 5 of 2 M pushes), name c9. One more step builds
# c1 with --tinyconfig (tinyconfig + bisect-kernel.config: no function
# tracer), boots it with latmon and records a run, in which latmon's
# alloc-zero source is unavailable with its reason and the others load.
# Not part of make check: a cold build takes most of an hour
# (tests/BENCHMARKS.md).
#
#   scripts/bisect/check-bisect.sh [WORKDIR]     (default build/bisect)
set -u

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
STEP=$ROOT/scripts/bisect/bisect-step.sh
W=${1:-$ROOT/build/bisect}
WL=(grow --no-thp --iters 2000000)
JUDGE=(--metric fault:p50 --repeat 5)
# The README's recipe: bisect-step.sh --record / --baseline good.json --
# grow --no-thp, its defaults deciding (fault:p50, 5 runs, up to 3 boots),
# BISECT_ROUNDS times (default 3: it must end on the planted commit each).
README_WL=(grow --no-thp)
ROUNDS=${BISECT_ROUNDS:-3}
found=0
export GIT_AUTHOR_NAME=latctl GIT_AUTHOR_EMAIL=latctl@example.org
export GIT_COMMITTER_NAME=latctl GIT_COMMITTER_EMAIL=latctl@example.org
# reproducible kernels: the same commit builds the same image
export KBUILD_BUILD_TIMESTAMP="2026-01-01" KBUILD_BUILD_VERSION=1
export KBUILD_BUILD_USER=latctl KBUILD_BUILD_HOST=bisect
n=0 failed=0
ok() { local what=$1; shift; n=$((n + 1)); if "$@"; then echo "ok $n - $what"; else echo "not ok $n - $what"; failed=$((failed + 1)); fi; }

# One planted commit: $1 its date (fixed, so the history is the same
# commits every time and a warm build directory stays warm), $2 message.
plant() {
	git -C "$L" add -A
	GIT_AUTHOR_DATE="2026-01-01T00:$1:00Z" GIT_COMMITTER_DATE="2026-01-01T00:$1:00Z" \
		git -C "$L" commit -q -m "$2"
}
note() { echo "$2" >>"$L/$1"; }

# The extra zeroing of c3, before the new folio is marked up to date.
slow_down() {
	perl -0pi -e 's/(\n\t__folio_mark_uptodate\(folio\);\n)/\n\t{\n\t\tint latctl_i;\n\n\t\tfor (latctl_i = 0; latctl_i < 8; latctl_i++)\n\t\t\tfolio_zero_range(folio, 0, folio_size(folio));\n\t}$1/' \
		"$L/mm/memory.c"
	grep -q latctl_i "$L/mm/memory.c"
}
# c9: mm/memory.c as Debian ships it again.
speed_up() { git -C "$L" show "$(git -C "$L" rev-list --max-parents=0 HEAD):mm/memory.c" >"$L/mm/memory.c"; }

make_history() {
	local base=$1
	if [ ! -d "$L/.git" ]; then
		git clone -q "$base" "$L" || return 1
	fi
	git -C "$L" bisect reset -q >/dev/null 2>&1
	# a tree made by another clone (BISECT_WORK=) has another base commit
	git -C "$L" cat-file -e "$(git -C "$base" rev-parse HEAD)" 2>/dev/null ||
		git -C "$L" fetch -q "$base" HEAD || return 1
	git -C "$L" checkout -q -f master && git -C "$L" reset -q --hard "$(git -C "$base" rev-parse HEAD)" || return 1
	note Documentation/admin-guide/mm/transhuge.rst "" && plant 02 "c2: docs: a blank line"
	slow_down && plant 03 "c3: mm: zero each new anonymous folio 8 more times"
	note mm/memory.c '#error "c4: this commit does not build"' && plant 04 "c4: mm: a build break"
	sed -i '/c4: this commit does not build/d' "$L/mm/memory.c" && plant 05 "c5: mm: the build fixed"
	note README "" && plant 06 "c6: README: a blank line"
	note Documentation/admin-guide/README.rst "" && plant 07 "c7: docs: a blank line"
	note MAINTAINERS "" && plant 08 "c8: MAINTAINERS: a blank line"
	speed_up && ! grep -q latctl_i "$L/mm/memory.c" && plant 09 "c9: mm: the extra zeroing removed"
	note Documentation/admin-guide/mm/transhuge.rst "" && plant 10 "c10: docs: another blank line"
	note Documentation/admin-guide/README.rst "" && plant 11 "c11: docs: another blank line"
	mapfile -t C < <(git -C "$L" rev-list --reverse -n 11 HEAD)
	[ "${#C[@]}" = 11 ]
}
c() { echo "${C[$1 - 1]}"; }
# The sources of latmon in result $1 as "name=state" lines, and the reason
# of alloc-zero.
sources_of() {
	perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; my $d = decode_json(<$f>);
		my $r = $d->{repeat} ? $d->{repeat}{per_run}[0] : $d;
		for (@{$r->{latmon}{sources} // []}) { print "$_->{name}=$_->{state}\n";
			print "reason=$_->{reason}\n" if $_->{name} eq "alloc-zero" }' "$1"
}
# alloc-zero unavailable for the function tracer, fault loaded, in result $1.
tiny_sources_ok() {
	local s
	s=$(sources_of "$1") || return 1
	printf '%s\n' "$s" | sed 's/^/#   /'
	grep -qx 'alloc-zero=unavailable' <<<"$s" && grep -q '^reason=.*no CONFIG_DYNAMIC_FTRACE' <<<"$s" &&
		grep -Eqx 'fault=(attached|available)' <<<"$s"
}
short() { git -C "$L" rev-parse --short=12 "$(c "$1")"; }

# "verdict runs boots" of each judged step of a round's steps.log, for the
# table of runs and boots per step (tests/BENCHMARKS.md).
step_costs() {
	sed -nE 's/^([0-9a-f]+) ([01]) .*, ([0-9]+) runs in ([0-9]+) boot\(s\)$/\1 \2: \3 runs, \4 boot(s)/p' "$1"
}

# Round $1 of the regression bisect, run as the README prints it: the
# baseline recorded on c1, then git bisect run with --baseline and the
# workload alone (default metric, runs and boots); only where the tree,
# build and results live is given.
regression_round() {
	local k=$1 R=$W/regression-$1 t rc
	rm -rf "$R"
	git -C "$L" checkout -q "$(c 1)"
	t=$SECONDS
	ok "round $k: c1 (good): the baseline recorded" "$STEP" --tree "$L" --build "$W/build" \
		--results "$R" --record "$W/good-$k.json" -- "${README_WL[@]}"
	echo "# round $k: baseline step (build, boot, runs): $((SECONDS - t)) s"
	t=$SECONDS
	(cd "$L" && git bisect start "$(c 8)" "$(c 1)" >/dev/null &&
		git bisect run "$STEP" --build "$W/build" --results "$R" --baseline "$W/good-$k.json" \
			-- "${README_WL[@]}") >"$R.txt" 2>&1
	rc=$?
	sed 's/^/# /' "$R.txt" | grep -E '^# (bisect-step|[0-9a-f]+ is the first)'
	step_costs "$R/steps.log" | sed "s/^/# round $k: step /"
	echo "# round $k: regression bisect: $((SECONDS - t)) s"
	ok "round $k: git bisect run ends (exit $rc)" [ "$rc" = 0 ]
	grep -q "^$(c 3) is the first bad commit" "$R.txt" && found=$((found + 1))
	ok "round $k: the first bad commit is c3, the planted regression" \
		grep -q "^$(c 3) is the first bad commit" "$R.txt"
	ok "round $k: c4, which does not build, is skipped (125), not judged" \
		bash -c "grep -q '^$(short 4) 125 build failed' '$R/steps.log' && ! grep -Eq '^$(short 4) [01] ' '$R/steps.log'"
	ok "round $k: each judged step's line names the kernel, build and boot times, runs and boots" \
		grep -Eq '^[0-9a-f]+ [01] .*; kernel 6\.12\.[0-9]+-bisect\+?, build [0-9]+ s, boot and runs [0-9]+ s, [0-9]+ runs in [0-9]+ boot' "$R/steps.log"
	git -C "$L" bisect reset -q >/dev/null 2>&1
}

main() {
	local base t0=$SECONDS t rc
	L=$W/linux
	mkdir -p "$W"
	echo "# work directory $W"
	base=$("$ROOT/scripts/bisect/linux-tree.sh") || { echo "Bail out! no Linux tree"; exit 1; }
	make -s -C "$ROOT" user >/dev/null || { echo "Bail out! latctl does not build"; exit 1; }
	ok "the planted history of 11 commits on $(git -C "$base" log --format=%s -1)" make_history "$base"
	rm -rf "$W"/regression* "$W/improvement"

	for k in $(seq "$ROUNDS"); do
		regression_round "$k"
	done
	echo "# the README's recipe ended on c3 in $found of $ROUNDS rounds"

	git -C "$L" checkout -q "$(c 8)"
	t=$SECONDS
	ok "c8 (slow): the baseline of the improvement recorded" "$STEP" --tree "$L" --build "$W/build" \
		--results "$W/improvement" "${JUDGE[@]}" --record "$W/slow.json" -- "${WL[@]}"
	(cd "$L" && git bisect start --term-old=slow --term-new=fast "$(c 11)" "$(c 8)" >/dev/null &&
		git bisect run "$STEP" --improvement --build "$W/build" --results "$W/improvement" \
			--baseline "$W/slow.json" "${JUDGE[@]}" -- "${WL[@]}") >"$W/improvement.txt" 2>&1
	rc=$?
	sed 's/^/# /' "$W/improvement.txt" | grep -E '^# (bisect-step|[0-9a-f]+ is the first)'
	echo "# improvement bisect: $((SECONDS - t)) s"
	ok "git bisect run --improvement ends (exit $rc)" [ "$rc" = 0 ]
	ok "the first fast commit is c9, the planted fix" grep -q "^$(c 9) is the first fast commit" "$W/improvement.txt"
	git -C "$L" bisect reset -q >/dev/null 2>&1

	git -C "$L" checkout -q "$(c 1)"
	t=$SECONDS
	rm -rf "$W/tiny-step"
	ok "--tinyconfig: c1 built without the function tracer, latmon loaded, a run recorded" \
		"$STEP" --tree "$L" --tinyconfig --build "$W/tiny" --results "$W/tiny-step" --repeat 1 \
		--record "$W/tiny.json" -- "${WL[@]}"
	echo "# tinyconfig step: $((SECONDS - t)) s"
	ok "... its alloc-zero unavailable with the reason, the fault source loaded" tiny_sources_ok "$W/tiny.json"
	echo "# check-bisect: $((SECONDS - t0)) s in all"
	echo "1..$n"
	[ "$failed" = 0 ]
}

main "$@"

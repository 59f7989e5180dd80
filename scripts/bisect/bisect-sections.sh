#!/bin/bash
# SPDX-License-Identifier: MIT
# A bisect that tests K commits of the range at once, each a step of
# scripts/bisect/bisect-step.sh (on a lab: --lab URL, one device each), in
# rounds: the K commits cut what is left into K+1 sections, their verdicts
# are marked with git bisect (good, bad, skip: git bisect is the record,
# `git bisect log` shows every commit tested), and the next round takes the
# section that holds the first bad commit. About log base K+1 of N rounds
# instead of log2 N steps.
#
#   git bisect start BAD GOOD
#   scripts/bisect/bisect-sections.sh --sections K [--results DIR] \
#       [bisect-step options] -- WORKLOAD [OPTIONS]
#
# Run in the tree (or --tree DIR) after `git bisect start`. Each section's
# commit is checked out in a worktree of its own (RESULTS/tree-I, kept
# between rounds, so a Linux tree's build directory RESULTS/build-I stays
# warm); its step's results go to RESULTS/section-I and RESULTS/rounds.log
# has one line per round. Exit 0 when git bisect names the first bad
# commit, 128 when a step stops the bisect (a wrong --baseline, URL or
# token), 1 when only skipped commits are left.
set -u

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
STEP=$ROOT/scripts/bisect/bisect-step.sh

die() { echo "bisect-sections: $1" >&2; exit "${2:-128}"; }

parse() {
	K="" TREE=. RESULTS=./latctl-bisect PASS=()
	while [ $# -gt 0 ]; do
		case $1 in
		--sections) K=${2:?}; shift 2 ;;
		--tree) TREE=${2:?}; shift 2 ;;
		--results) RESULTS=${2:?}; shift 2 ;;
		--build) die "--build: each section has its own, RESULTS/build-I" ;;
		--) break ;;
		*) PASS+=("$1"); shift ;;
		esac
	done
	[ $# -ge 2 ] || die "usage: $0 --sections K [--tree DIR] [--results DIR] [bisect-step options] -- WORKLOAD"
	REST=("$@")
	case $K in [1-9]) ;; *) die "--sections '$K': give 1 to 9" ;; esac
	NEW=$(git -C "$TREE" bisect terms --term-bad 2>/dev/null) &&
		OLD=$(git -C "$TREE" bisect terms --term-good) &&
		git -C "$TREE" rev-parse -q --verify "refs/bisect/$NEW" >/dev/null ||
		die "no bisect in $TREE with a bad and a good commit: run git bisect start BAD GOOD first"
	TREE=$(cd "$TREE" && pwd)
	mkdir -p "$RESULTS" || die "cannot make $RESULTS"
	RESULTS=$(cd "$RESULTS" && pwd)
}

# The commits left to test, oldest first: below the bad one, above every
# good one, none skipped.
left() {
	local goods skips
	goods=$(git -C "$TREE" for-each-ref --format='^%(objectname)' "refs/bisect/$OLD-*")
	skips=$(git -C "$TREE" for-each-ref --format='%(objectname)' 'refs/bisect/skip-*')
	# shellcheck disable=SC2086
	git -C "$TREE" rev-list --reverse "refs/bisect/$NEW^@" $goods |
		grep -vxF -f <(echo "${skips:-none}")
}

# K commits cutting the M left into K+1 sections (fewer when M < K).
pick() {
	local m=$# i last=0 at
	for i in $(seq "$K"); do
		at=$(((i * (m + 1)) / (K + 1)))
		[ "$at" -ge 1 ] && [ "$at" -le "$m" ] && [ "$at" -gt "$last" ] || continue
		echo "${!at}"
		last=$at
	done
}

# Section $1 tests commit $2: its worktree, then bisect-step.sh; the exit
# code in RESULTS/section-I.rc.
section() {
	local i=$1 c=$2 wt=$RESULTS/tree-$1 rc=0
	if [ "$(git -C "$wt" rev-parse --git-common-dir 2>/dev/null)" -ef "$(git -C "$TREE" rev-parse --git-common-dir)" ]; then
		git -C "$wt" checkout -q --detach "$c"
	else	# none yet, or one of another tree
		rm -rf "$wt" && git -C "$TREE" worktree prune &&
			git -C "$TREE" worktree add -q --detach "$wt" "$c"
	fi >"$RESULTS/section-$i.err" 2>&1 || { echo 125 >"$RESULTS/section-$i.rc"; return; }
	"$STEP" --tree "$wt" --results "$RESULTS/section-$i" --build "$RESULTS/build-$i" \
		"${PASS[@]}" "${REST[@]}" 2>>"$RESULTS/section-$i.err" || rc=$?
	echo "$rc" >"$RESULTS/section-$i.rc"
}

# Mark commit $1 with git bisect after exit code $2: the term in MARK,
# git's words in MARKED.
mark() {
	local term
	case $2 in
	0) term=$OLD ;;
	1) term=$NEW ;;
	*) term=skip ;;
	esac
	MARKED=$(git -C "$TREE" bisect "$term" "$1" 2>&1)
	MARK=$term
}

# One round: K steps at once, then their marks in commit order.
round() {
	local i=0 c rc pids=() line="round $1:"
	shift
	mapfile -t PICKED < <(pick "$@")
	for c in "${PICKED[@]}"; do
		i=$((i + 1))
		section "$i" "$c" &
		pids+=($!)
	done
	wait "${pids[@]}"
	i=0
	for c in "${PICKED[@]}"; do
		i=$((i + 1))
		rc=$(cat "$RESULTS/section-$i.rc")
		sed 's/^/  /' "$RESULTS/section-$i.err" >&2
		[ "$rc" = 128 ] && die "section $i ($c) stopped the bisect: $(tail -n1 "$RESULTS/section-$i.err")"
		mark "$c" "$rc"
		line="$line $(git -C "$TREE" rev-parse --short=12 "$c") $MARK"
		case $MARKED in *"is the first "*" commit"*) FOUND=$MARKED ;; esac
	done
	echo "$line" | tee -a "$RESULTS/rounds.log" >&2
}

main() {
	local r=0 commits start=$SECONDS
	parse "$@"
	FOUND=""
	while [ -z "$FOUND" ]; do
		mapfile -t commits < <(left)
		if [ ${#commits[@]} -eq 0 ]; then
			git -C "$TREE" bisect log | tail -n 3 >&2
			die "no commit left to test but skipped ones" 1
		fi
		r=$((r + 1))
		echo "bisect-sections: round $r: ${#commits[@]} commit(s) left, testing up to $K" >&2
		round "$r" "${commits[@]}"
	done
	printf '%s\n' "$FOUND" | sed -n '/is the first/,$p' | head -n 1
	echo "bisect-sections: $r round(s) in $((SECONDS - start)) s; git bisect log has every mark" >&2
	git -C "$TREE" worktree prune
}

main "$@"

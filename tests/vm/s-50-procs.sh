# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# Following forks under load: LATMON_STRESS_CYCLES / 10 rounds (at least 3)
# of a target whose 64 threads each fork a child that faults and exits,
# recorded with every source while a fault storm and a CPU hopper run. After
# each round every thread and child has left the thread table (GET_STATS:
# 1 alive, 129 followed, none refused), every child's fault records are its
# wait4 count (in rounds that lost no event), and the stream agrees with
# GET_STATS per CPU. Sourced by
# suite.sh s.

ROUNDS=$(( ${LATMON_STRESS_CYCLES:-100} / 10 ))
[ "$ROUNDS" -ge 3 ] || ROUNDS=3
echo "# s-50-procs: $ROUNDS rounds of 64 threads x 1 child under load"
bad_leak=0 bad_faults=0 bad_acct=0 lossy=0

load
bg sh -c 'while :; do lmtouch --pages 2000 >/dev/null; done'
bg sh -c 'while :; do lmtouch --pages 640 --hop >/dev/null; done'
for round in $(seq "$ROUNDS"); do
	lmtool record --events procs.bin -- lmprocs fork --threads 64 --pages 32 \
		>procs.out 2>&1
	lmtool stats >procs.stats
	grep -q '^threads live=1 followed=129 refused=0$' procs.stats ||
		{ bad_leak=$((bad_leak + 1)); echo "# round $round: $(grep '^threads' procs.stats)"; }
	lmtool read --events procs.bin | awk '$1 == "fault" && $0 !~ /flags=[^ ]*(retry|error|major)/ {
		for (i = 2; i <= NF; i++) if ($i ~ /^pid=/) { split($i, a, "="); n[a[2]]++ } }
		END { for (p in n) print p, n[p] }' >procs.faults
	differ=$(awk 'NR == FNR { n[$1] = $2; next }
		/child pid=/ { split($3, a, "="); split($4, b, "="); if (n[a[2]] != b[2]) d++ }
		END { print d + 0 }' procs.faults procs.out)
	ring_counts procs.bin >procs.cpus
	lost=$(awk '{ split($4, a, "="); s += a[2] } END { print s + 0 }' procs.cpus)
	if [ "$lost" != 0 ]; then
		lossy=$((lossy + 1))	# lost events: the counts cannot agree
	elif [ "$differ" != 0 ]; then
		bad_faults=$((bad_faults + 1)); echo "# round $round: $differ children differ"
	fi
	[ -z "$(ring_counts_disagree procs.cpus procs.stats)" ] ||
		{ bad_acct=$((bad_acct + 1)); echo "# round $round: accounting"; sed 's/^/#   /' procs.cpus; }
done
kill $BG_PIDS 2>/dev/null; wait 2>/dev/null; BG_PIDS=""
ok "under load, $ROUNDS rounds: no thread-table entry leaked ($bad_leak rounds bad)" [ "$bad_leak" = 0 ]
ok "under load, $ROUNDS rounds: every child's fault records == its wait4 minflt ($bad_faults bad, $lossy with lost events not compared)" \
	[ "$bad_faults" = 0 ] && [ "$lossy" -lt "$ROUNDS" ]
ok "under load, $ROUNDS rounds: per CPU the stream agrees with GET_STATS ($bad_acct bad)" \
	[ "$bad_acct" = 0 ]
unload

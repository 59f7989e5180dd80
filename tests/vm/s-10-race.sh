# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# Races under load: LATMON_STRESS_CYCLES cycles (default 100)
# of START on a fault storm or a CPU hopper, a second storm and the hopper
# (IPIs, migrations, timers) running, a reader blocked in read() or poll()
# or none, then STOP or rmmod at a random moment. After each cycle the
# module answers GET_INFO or is cleanly gone (and loads again); no oops.
# Seeded: LATMON_STRESS_SEED repeats a run. Sourced by suite.sh s.

CYCLES=${LATMON_STRESS_CYCLES:-100}
SEED=${LATMON_STRESS_SEED:-$(( $(date +%s) % 32768 ))}
RANDOM=$SEED
echo "# s-10-race: $CYCLES cycles, seed $SEED (LATMON_STRESS_SEED=$SEED repeats them)"
bad_end=0 bad_reader=0 bad_usable=0 bad_acct=0 bad_log=0 n_rmmod=0 n_busy=0 n_poll=0 n_read=0
tot_read=0 tot_dropped=0

# Diagnostic line for a failed property of the current cycle.
cfail() { echo "# cycle $cycle ($plan): $*"; }

# Wait up to 10 s for the reader to end; its exit status, 124 if it did not.
reader_wait() {
	for _ in $(seq 100); do kill -0 "$reader" 2>/dev/null || break; sleep 0.1; done
	kill -0 "$reader" 2>/dev/null && { kill "$reader"; wait "$reader"; return 124; }
	wait "$reader"
}

# STOP or rmmod as planned; with a reader, rmmod must first be refused.
end_session() {
	if [ "$end" = stop ]; then
		lmtool stop >/dev/null 2>&1 || { cfail "STOP failed"; bad_end=$((bad_end + 1)); }
		return
	fi
	n_rmmod=$((n_rmmod + 1))
	if rmmod latmon 2>/dev/null; then
		[ -z "$reader" ] || ! kill -0 "$reader" 2>/dev/null ||
			{ cfail "rmmod succeeded while a reader held the device"; bad_end=$((bad_end + 1)); }
		return
	fi
	n_busy=$((n_busy + 1))
	[ -n "$reader" ] || { cfail "rmmod failed without a reader"; bad_end=$((bad_end + 1)); }
	lmtool info 2>&1 | grep -q 'running 1' || { cfail "no answer after a refused rmmod"; bad_end=$((bad_end + 1)); }
	lmtool stop >/dev/null 2>&1
	reader_wait || { cfail "reader did not end at EOF: $(cat reader.out)"; bad_reader=$((bad_reader + 1)); }
	rmmod latmon || { cfail "rmmod failed after the reader ended"; bad_end=$((bad_end + 1)); }
}

# After STOP and a reader's EOF: per CPU, READ == RECORDED + LOST_RECORDS.
check_accounting() {
	lmtool stats >stats.out 2>&1 || { cfail "GET_STATS failed"; bad_acct=$((bad_acct + 1)); return; }
	kv_awk '/^cpu / && f["read"] + 0 != f["recorded"] + f["lost_records"] { bad = 1 }
	     END { exit bad }' stats.out ||
		{ cfail "read != recorded + lost_records: $(grep total stats.out)"; bad_acct=$((bad_acct + 1)); }
	local read dropped
	read=$(grep '^total' stats.out | field read) dropped=$(grep '^total' stats.out | field dropped)
	tot_read=$((tot_read + read)) tot_dropped=$((tot_dropped + dropped))
	[ "$rkind" = read ] || return 0
	# the reader's own count: what GET_STATS says it delivered, and the drops
	[ "$(field records <reader.out)" = "$read" ] && [ "$(field lost_events <reader.out)" = "$dropped" ] ||
		{ cfail "reader got $(cat reader.out), GET_STATS: $(grep total stats.out)"; bad_acct=$((bad_acct + 1)); }
}

# One cycle; the plan (target, reader, delay, end) comes from $RANDOM.
one_cycle() {
	local target delay kinds=(none read poll)
	rkind=${kinds[RANDOM % 3]} delay=$((RANDOM % 1500)) end=stop reader=""
	[ $((RANDOM % 2)) = 1 ] && end=rmmod
	lmtouch --pages 64 --repeat 1000 >/dev/null 2>&1 & storm1=$!
	lmtouch --pages 64 --repeat 1000 >/dev/null 2>&1 & storm2=$!
	stress bounce 30 & hopper=$!
	target=$storm1
	[ $((RANDOM % 2)) = 1 ] && target=$hopper
	plan="target=$([ "$target" = "$hopper" ] && echo hopper || echo storm) reader=$rkind delay=${delay}ms end=$end"
	lmtool start --tgid "$target" --buffer $((4 << (RANDOM % 8))) >start.out 2>&1 ||
		cfail "START failed: $(cat start.out)"
	case $rkind in
	read) lmtool read --count >reader.out 2>&1 & reader=$! n_read=$((n_read + 1)) ;;
	poll) stress poll >reader.out 2>&1 & reader=$! n_poll=$((n_poll + 1)) ;;
	esac
	sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
	end_session
	if [ -n "$reader" ] && loaded; then
		reader_wait || { cfail "reader did not end at EOF: $(cat reader.out)"; bad_reader=$((bad_reader + 1)); }
		[ "$end" = stop ] && check_accounting
	fi
	kill "$storm1" "$storm2" "$hopper" 2>/dev/null
	wait "$storm1" "$storm2" "$hopper" 2>/dev/null
	loaded || insmod "$KO" || cfail "insmod after rmmod failed"
	lmtool info 2>&1 | grep -q 'running 0 tgid 0' ||
		{ cfail "module not usable: $(lmtool info 2>&1 | head -n1)"; bad_usable=$((bad_usable + 1)); }
	dmesg | grep -Eq 'WARNING:|BUG:|Call Trace:|Oops|general protection|RIP:' &&
		{ cfail "kernel log: $(dmesg | grep -E 'WARNING:|BUG:|RIP:' | head -n3)"; bad_log=$((bad_log + 1)); }
}

load
t0=$(date +%s)
for cycle in $(seq "$CYCLES"); do one_cycle; done
echo "# $CYCLES cycles in $(( $(date +%s) - t0 )) s: $n_rmmod rmmod ($n_busy refused while a reader held the device), readers: $n_read read(), $n_poll poll(); $tot_read records read and $tot_dropped events dropped (and accounted) in the cycles ended by STOP with a reader"
check "STOP succeeded and rmmod behaved in all $CYCLES cycles (seed $SEED)" "[ $bad_end = 0 ]" 0 ''
check "every reader ended at EOF after STOP (seed $SEED)" "[ $bad_reader = 0 ]" 0 ''
check "after a STOP and a full read, READ == RECORDED + LOST_RECORDS per CPU, and the reader got READ records and the dropped count (seed $SEED)" "[ $bad_acct = 0 ]" 0 ''
check "after every cycle the module answered GET_INFO, idle (seed $SEED)" "[ $bad_usable = 0 ]" 0 ''
check "no WARNING, BUG or oops during the cycles (seed $SEED)" "[ $bad_log = 0 ]" 0 ''

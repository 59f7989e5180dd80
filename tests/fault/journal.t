#!/bin/bash
# SPDX-License-Identifier: MIT
# Nothing a killed run changed stays changed: kill -9 at a kill point
# (after the journal's synced line, before the write) and mid-run, with
# --thp and --thp-size, and of --repeat; the next latctl command puts the
# settings back and says which; doctor shows what was left; latctl
# restore does it on demand; a journal whose PID runs again (reused) is
# still put back, the lock says the run is gone; two runs with --thp-size
# at once wait for each other. On a fake sysfs ($LATCTL_SYSFS_THP) and
# journal directory ($LATCTL_STATE_DIR): runs unprivileged. The journal
# names settings by key ("set thp madvise"), never by path. As root, also
# on the real THP file, and a flock held on it by user nobody stalls
# nothing.
. "$(dirname "$0")/../cli/engine.sh"

L=$LATCTL
F=$TMPD/thp
export LATCTL_STATE_DIR=$TMPD/state LATCTL_SYSFS_THP=$F
reset_fake() {
	mkdir -p "$F/hugepages-64kB" "$F/hugepages-2048kB"
	echo 'always [inherit] madvise never' > "$F/hugepages-2048kB/enabled"
	echo 'always [madvise] never' > "$F/enabled"
	echo 'always defer defer+madvise [madvise] never' > "$F/defrag"
	echo 'always inherit madvise [never]' > "$F/hugepages-64kB/enabled"
}
val() { sed 's/.*\[\(.*\)\].*/\1/' "$1"; }
RUN="$L run grow --backend none"
# wait_for FILE VALUE: until the fake setting is VALUE (the run has set it)
wait_for() { for _ in $(seq 600); do [ "$(val "$1")" = "$2" ] && return 0; sleep 0.05; done; return 1; }

reset_fake
check "kill point: SIGKILL after the journal's line, before the write" \
	"LATCTL_TEST_KILL=journaled $RUN --thp always --iters 1000" 137 ''
ok "... the journal holds the setting and its old value" \
	grep -q "^set	thp	madvise$" "$LATCTL_STATE_DIR/journal"
check "... the next command (latctl list) says what it put back" "$L list" 0 \
	"a latctl run that died \(pid [0-9]+ .*--thp always.*\) left settings changed; put back: $F/enabled madvise -> madvise"
ok "... and removed the journal" test ! -e "$LATCTL_STATE_DIR/journal"

reset_fake
$RUN --thp always --thp-size 64K=always --iters 40000000 --quiet & pid=$!
wait_for "$F/hugepages-64kB/enabled" always && wait_for "$F/enabled" always
kill -9 $pid; wait $pid 2>/dev/null
ok "kill -9 mid-run: THP and 64 KiB left at always" \
	test "$(cat "$F/enabled") $(cat "$F/hugepages-64kB/enabled")" = "always always"
check "... doctor shows what the dead run left, and changes nothing" "$L doctor" 0 \
	"warn +settings +$pid .*set $F/enabled madvise; set $F/hugepages-64kB/enabled never"
ok "... doctor left them as they were" test "$(cat "$F/enabled")" = always
check "... latctl restore puts both back, newest first, and says so" "$L restore" 0 \
	"put back: $F/hugepages-64kB/enabled always -> never; $F/enabled always -> madvise$"
ok "... THP is madvise, 64 KiB never again" \
	test "$(val "$F/enabled") $(val "$F/hugepages-64kB/enabled")" = "madvise never"
check "... a second restore: nothing left" "$L restore" 0 'no latctl run left a setting changed'

reset_fake
$RUN --thp always --repeat 5 --iters 20000000 --quiet --json "$TMPD/rep.json" & pid=$!
wait_for "$F/enabled" always
kill -9 $pid; wait $pid 2>/dev/null
for _ in $(seq 100); do [ "$(val "$F/enabled")" = madvise ] && break; sleep 0.1; done
ok "kill -9 of --repeat: its run dies with it and puts THP back itself" test "$(val "$F/enabled")" = madvise
ok "... and leaves no run going" bash -c "! pgrep -f -- '[-]-repeat 1 --json $TMPD/'"
check "... the next --repeat removes the dead one's scratch directory" \
	"$RUN --repeat 2 --iters 1000 --quiet --json $TMPD/rep.json; ls -A $TMPD | grep -c '^\\.latctl-repeat\\.'" 1 '^0$'

reset_fake
printf 'run %d latctl run grow --thp always\nsysfs\tfake\nset\tthp\tmadvise\n' $$ > "$LATCTL_STATE_DIR/journal"
echo always > "$F/enabled"
check "a journal whose PID runs again (this shell's): the free lock says its run died" "$L list" 0 \
	"died \(pid $$ latctl run grow --thp always\).* always -> madvise"

reset_fake
$RUN --thp-size 64K=always --iters 40000000 --quiet & first=$!
wait_for "$F/hugepages-64kB/enabled" always
check "two runs with --thp-size at once: the second waits and says for whom" \
	"$RUN --thp-size 64K=madvise --iters 1000" 0 "waiting for another latctl run \(pid $first .*64K=always"
wait $first
ok "... both put back: 64 KiB never" test "$(val "$F/hugepages-64kB/enabled")" = never

reset_fake
$RUN --thp always --iters 30000000 --quiet 2> "$TMPD/meanwhile.err" & pid=$!
wait_for "$F/enabled" always
echo 'always madvise [never]' > "$F/enabled"
wait $pid
ok "a setting changed by someone else during the run: said when it is put back" \
	grep -q "enabled was changed to 'never' by someone else during the run (latctl set 'always'); putting back 'madvise'" "$TMPD/meanwhile.err"
ok "... and put back" test "$(val "$F/enabled")" = madvise

reset_fake
check "a state directory whose parents are missing (a box without /run): made with them" \
	"LATCTL_STATE_DIR=$TMPD/no/run/latctl $RUN --thp always --iters 1000 --quiet; stat -c %a $TMPD/no/run/latctl" 0 '^700$'
ok "... and THP put back" test "$(val "$F/enabled")" = madvise
check_err "a state directory that cannot be made: one line, none that blames THP" \
	"LATCTL_STATE_DIR=/proc/latctl-state $RUN --thp always --iters 1000 --quiet" 1 \
	'cannot keep the journal of changed settings in /proc/latctl-state: .*set LATCTL_STATE_DIR'

if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	unset LATCTL_STATE_DIR LATCTL_SYSFS_THP
	T=/sys/kernel/mm/transparent_hugepage/enabled
	before=$(cat $T)
	su nobody -s /bin/sh -c "exec flock $T sleep 30" >/dev/null 2>&1 & holder=$!
	sleep 0.5
	check "root's --thp run with a flock held on the THP file by nobody: not stalled" \
		"timeout 20 $L run grow --thp always --iters 1000 --backend none --quiet; echo rc=\$?" 0 '^rc=0$'
	kill $holder 2>/dev/null
	ok "... THP as before ($before)" test "$(cat $T)" = "$before"
	# a value other than this machine's (Debian's own kernels boot with always)
	want=always
	grep -q '\[always\]' $T && want=never
	$L run grow --thp $want --iters 40000000 --backend none --quiet & pid=$!
	for _ in $(seq 200); do grep -q "\[$want\]" $T && break; sleep 0.05; done
	kill -9 $pid; wait $pid 2>/dev/null
	check "real THP ($before here), kill -9 mid-run with --thp $want: the next command puts it back" "$L list" 0 "put back: $T $want -> "
	ok "... THP as before ($before)" test "$(cat $T)" = "$before"
fi
done_testing

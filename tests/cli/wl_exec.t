#!/bin/bash
# SPDX-License-Identifier: MIT
# exec: your own program under latctl, on this machine's backend. A program
# with markers (tests/exec/markers_prog.c) whose iterations do known work
# gets the causes of that work: fresh pages are faults (as many fault events
# as the program's own getrusage counts), sleeps are blocked and woken by
# the timer's interrupt, work beside a
# CPU hog on its CPU is preempted by the hog; 8 threads, 100 at once and
# 100 one after another keep every iteration in two pages of ring each; a
# forked child, a full region, threads beyond --threads and misuse are
# counted. The Python ctypes example gets the same labels for the same
# work. Without markers the command's system calls are the iterations,
# munmap named. --duration stops a server; a failing command's status is
# latctl's.
. "$(dirname "$0")/engine.sh"

L=$LATCTL
B=$TESTS_DIR/tests/exec/bin
LIB=$TESTS_DIR/user/markers/liblatctl.so.1
[ -x "$B/markers_prog" ] || { echo "Bail out! tests/exec/bin not built (make check builds it)"; exit 1; }

check_err "exec without a command" "$L run exec" 2 'exec needs a command: latctl run exec'
# a command that is not there or cannot run: the shell's status and words
check_err "exec of a program that is not there: 127" "$L run exec -- $TMPD/nosuch" 127 \
	"exec: $TMPD/nosuch: No such file or directory"
check_err "exec of a name not in PATH: 127" "$L run exec -- nosuch-latctl-prog" 127 \
	"exec: nosuch-latctl-prog: command not found"
mkdir -p $TMPD/adir $TMPD/pathdir/adir
check_err "exec of a directory: 126" "$L run exec -- $TMPD/adir" 126 "exec: $TMPD/adir: Is a directory"
check_err "exec of a file that is not executable: 126" "$L run exec -- /etc/passwd" 126 \
	"exec: /etc/passwd: Permission denied"
check_err "... and of a name in PATH that is a directory: 127" "PATH=$TMPD/pathdir:\$PATH $L run exec -- adir" 127 \
	"adir: command not found"
check_err "--repeat of a command not found: 127, the one line" "$L run exec --repeat 2 -- nosuch-latctl-prog" 127 \
	"nosuch-latctl-prog: command not found"
check_err "another workload takes no command" "$L run grow -- ls" 2 "unexpected argument 'ls'"
check "outside latctl the markers do nothing" "$B/markers_prog fault 100" 0 '^active 0'

caps=$("$L" backends)
case $caps in
*"bpf: yes"* | *"latmon: yes"*) ;;
*) skip_all "no backend records here: ${caps}" ;;
esac

# facts FILE.json: the figures the checks need, one "key value" per line.
facts() {
	perl -MJSON::PP -e 'local $/; my $d = decode_json(<>); my $c = $d->{causes};
	my %p = map { $_->{label} => $_ } @{$c->{causes}};
	my $n = $c->{slow_iterations};
	print "slow $n\n";
	for my $l (keys %p) { print "primary_$l $p{$l}{primary}\npresent_$l $p{$l}{present}\n" }
	my $sf = 0; $sf += $_->{fault_events} for @{$c->{stream_faults}};
	print "stream_faults $sf\n";
	my $x = $d->{extras}; my $m = $x->{markers};
	print "source $x->{source}\nthreads $x->{threads}\nprocesses $x->{processes}\n";
	print "$_ $m->{$_}\n" for qw(written full threads_refused end_without_begin begin_twice populated_pages);
	print "iterations $d->{run}{iterations}\n";
	print "switch_ins_missed ", $d->{backend}{switch_ins_missed} // 0, "\n";
	my $h = 0; for (@{$d->{slow}{iterations}}) { $h++ if JSON::PP->new->canonical->encode($_) =~ /latctl-hog/ }
	print "named_hog $h\n";
	my $mu = 0; for (@{$d->{slow}{iterations}}) { $mu++ if ($_->{syscall}{name} // "") eq "munmap" }
	print "slow_munmap $mu\n";
	my $wi = 0;
	for (@{$d->{slow}{iterations}}) { $wi++ if ($_->{woken_by} // {})->{from_interrupt} }
	print "woken_irq $wi\n";' "$1"
}
# keep FILE CMD: CMD's stdout and stderr (the program's lines, then the
# report) into FILE and on stdout, its exit status kept.
keep() { echo "$2 > $1 2>&1; r=\$?; cat $1; exit \$r"; }
fact() { awk -v k="$2" '$1 == k { print $2; f = 1 } END { if (!f) print 0 }' "$1"; }

F=$TMPD/fault
check "a loop of first touches runs under latctl" \
	"$L run exec --json $F.json -- $B/markers_prog fault 3000 > $F.out 2> $F.txt" 0 ''
facts $F.json > $F.f
check "the program's stdout is its own: no line of the report" "cat $F.out" 0 '^minflt [0-9]+$'
ok "... its 3 lines alone" test "$(grep -c '' $F.out)" = 3
check "the report went to stderr, as perf stat's does" "cat $F.txt" 0 '^\$ .*latctl run exec --json'
cat $F.out >>$F.txt
check "the report names the command and how it ended" "cat $F.txt" 0 \
	"^command: $B/markers_prog fault 3000 \\(pid [0-9]+\\): exited with status 0"
check "... and where its iterations came from" "cat $F.txt" 0 \
	'^iterations: latctl_begin\(\) to latctl_end\(\) of 1 thread in 1 process'
check "... and that no marker was lost" "cat $F.txt" 0 '^markers lost: none$'
ok "every marked iteration is a sample (3000)" test "$(fact $F.f iterations)" = 3000
ok "the program saw itself under latctl" grep -q '^active 1' $F.txt
minflt=$(awk '$1 == "minflt" { print $2 }' $F.txt)
sf=$(fact $F.f stream_faults)
pop=$(fact $F.f populated_pages)
check "the pages of the markers' region faulted in are said" "cat $F.txt" 0 \
	"^markers' regions faulted in ahead of their records: $pop pages \\(not in the counters\\); [0-9]+ fault records there set apart"
cf=$(json_get $F.json counters minor_faults)
# latctl's own faults in the loop (its reader, its clock) are a few hundred
ok "the counters' faults ($cf) are the program's ($minflt) less its regions' pages ($pop), within 500" \
	between "$cf" $((minflt - pop - 500)) $((minflt - pop + 500))
ok "fault events of the program's thread ($sf) + its region's pages ($pop) = its getrusage ($minflt), within 1%" \
	between "$((sf + pop))" $((minflt - minflt / 100 - 10)) $((minflt + minflt / 100 + 10))
ok "a fault is in every slow iteration ($(fact $F.f present_fault) of $(fact $F.f slow))" \
	test "$(fact $F.f present_fault)" = "$(fact $F.f slow)"
check "latctl report FILE prints the same report (the program's own lines aside)" \
	"'$L' report $F.json | diff - <(grep -Ev '^(minflt|iterations|active) [0-9]+$' $F.txt)" 0 ''

S=$TMPD/sleep
check "iterations that sleep" "$L run exec --slow 2ms --json $S.json -- $B/markers_prog sleep 20 > $S.txt" 0 ''
facts $S.json > $S.f
ok "... are all slow, and blocked ($(fact $S.f primary_blocked) of $(fact $S.f slow), 15 wanted)" \
	test "$(fact $S.f primary_blocked)" -ge 15 -a "$(fact $S.f slow)" = 20
ok "... woken by the timer's interrupt ($(fact $S.f woken_irq) of $(fact $S.f slow), 15 wanted)" \
	test "$(fact $S.f woken_irq)" -ge 15
H=$TMPD/hog
# Each iteration wakes a SCHED_FIFO hog on its CPU at its middle, which
# preempts it for 30 ms at once: the longest preemption of the iteration,
# whatever else the box runs (a VM of the suite beside, a CPU hog; three
# nice -5 spinners pinned beside it still leave 6 of 10 named). Every slow
# iteration shows it, also where the kernel does not report some switch-ins
# (on the CI's host no switch away from the sandbox agent's threads reaches
# sched_switch: 5 of 25 runs beside a VM had one slow iteration with 50 ms
# "unexplained" until latctl ended such a time off the CPU at the thread's
# next sign of running, backend.switch_ins_missed)
check "work that wakes a CPU hog on its own CPU" \
	"$L run exec --slow p50 --json $H.json -- $B/markers_prog hog 20 > $H.txt" 0 ''
facts $H.json > $H.f
ok "... is preempted in its slow iterations ($(fact $H.f present_preemption) of $(fact $H.f slow); $(fact $H.f switch_ins_missed) switch-ins unreported)" \
	test "$(fact $H.f present_preemption)" = "$(fact $H.f slow)"
# hog_named: the hog is named as the preemptor in at least half of the
# slow iterations of $H.json. On a box at load 8 (make check, a kernel
# bisect and a soak beside it) other tasks' slices outlasted a hog of 10 ms
# of calibrated work (shorter where the calibration was preempted) in 6 of
# 10, and beside two busy loops, VM runs and a debug-kernel VM in 6 of 10
# twice; the hog now spins 30 ms by the clock. Retried once, the reason
# printed.
hog_named() {
	facts "$H.json" >"$H.f"
	echo "# named the hog in $(fact "$H.f" named_hog) of $(fact "$H.f" slow)"
	test "$(fact "$H.f" named_hog)" -ge $(($(fact "$H.f" slow) / 2))
}
retry "a loaded box's other tasks may preempt longer than the hog" \
	"'$L' run exec --slow p50 --json '$H.json' -- '$B/markers_prog' hog 20 >/dev/null" \
	ok "... by the hog, named in at least half" hog_named

T=$TMPD/threads
check "8 threads at once" "$(keep $T.txt "$L run exec --json $T.json -- $B/markers_prog threads 8 1000")" 0 \
	'of 8 threads in 1 process'
facts $T.json > $T.f
ok "... 8000 iterations in 8 streams" test "$(fact $T.f iterations)" = 8000 -a "$(fact $T.f threads)" = 8
ok "... each stream joined with its own thread's faults" test "$(fact $T.f stream_faults)" -ge 8000
# who FILE STREAM_LEN: "OK of N, T threads" over FILE's slow iterations, OK
# those with a pid, a tid, the name markers_prog and their stream's index
who() {
	perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; my $d = decode_json(<$f>);
		my ($ok, $n, %t) = (0, 0);
		for (@{$d->{slow}{iterations}}) { $n++; $t{$_->{tid} // 0} = 1;
			$ok++ if ($_->{pid} // 0) > 0 && ($_->{tid} // 0) > 0 && ($_->{comm} // "") eq "markers_prog" &&
				$_->{stream_index} == $_->{index} - $ARGV[1] * $_->{stream} }
		printf "%d of %d, %d threads\n", $ok, $n, scalar(keys %t)' "$1" "$2"
}
export -f who
check "... every slow iteration says who ran it: pid, tid, its name and its place in its stream" \
	"who $T.json 1000" 0 '^([0-9]+) of \1, [2-8] threads$'
check "... and the slowest list names the thread" "cat $T.txt" 0 \
	'^ +thread [0-9]+ markers_prog of pid [0-9]+, its iteration [0-9]+'

# A region takes memory as its thread writes: a page at its first call,
# then as much again each time it fills; 1024 threads by default
W=$TMPD/wide
check "100 threads at once, 200 iterations each" \
	"$(keep $W.txt "$L run exec --json $W.json -- $B/markers_prog threads 100 200")" 0 \
	'^markers lost: none$'
facts $W.json > $W.f
ok "... keep all 20000 in 100 streams" test "$(fact $W.f iterations)" = 20000 -a "$(fact $W.f threads)" = 100
ok "... in 2 pages of ring each ($(fact $W.f populated_pages) pages in all, 24 MB a thread before)" \
	test "$(fact $W.f populated_pages)" = 200
Q=$TMPD/serial
check "100 threads one after another" \
	"$(keep $Q.txt "$L run exec --json $Q.json -- $B/markers_prog serial 100 200")" 0 \
	'of 100 threads in 1 process'
facts $Q.json > $Q.f
ok "... keep all 20000, 2 pages each ($(fact $Q.f populated_pages) in all)" \
	test "$(fact $Q.f iterations)" = 20000 -a "$(fact $Q.f populated_pages)" = 200

K=$TMPD/fork
check "a forked child writes its own stream" "$(keep $K.txt "$L run exec --json $K.json -- $B/markers_prog fork 1000")" 0 \
	'of 2 threads in 2 processes'
facts $K.json > $K.f
ok "... 2000 iterations" test "$(fact $K.f iterations)" = 2000

O=$TMPD/over
check "a region that fills up" "$(keep $O.txt "$L run exec --iters 100 --json $O.json -- $B/markers_prog fault 500")" 0 \
	"^markers lost: 400 iterations ! \\(a thread's region full: 400,"
check "... says how to keep more" "cat $O.txt" 0 'a region holds 100 iterations: raise --iters'
check "... and the report's second line says how many were kept" "grep -A1 '^\$ ' $O.txt | sed -n 2p" 0 \
	'^MARKERS LOST: kept 100 of 500 marked iterations; see "markers lost" below$'
facts $O.json > $O.f
ok "... keeps the first 100 and counts 400 in the JSON" test "$(fact $O.f iterations)" = 100 -a "$(fact $O.f full)" = 400
R=$TMPD/refused
check "threads beyond --threads" "$(keep $R.txt "$L run exec --threads 3 --json $R.json -- $B/markers_prog threads 8 200")" 0 \
	'^markers lost: 0 iterations, and all those of 5 threads beyond --threads 3 ! '
ok "... are counted, the others kept" test "$(fact <(facts $R.json) threads_refused)" = 5 -a "$(fact <(facts $R.json) iterations)" = 600
# No cap on threads: --threads takes more than 1024, the syscall mode
# names every thread (both were 1024 fixed slots once)
N=$TMPD/many
check "--threads 1500: 1200 threads one after another" \
	"$(keep $N.txt "$L run exec --threads 1500 --iters 50 --json $N.json -- $B/markers_prog serial 1200 10")" 0 \
	'of 1200 threads in 1 process'
ok "... keep all 12000 in 1200 streams" test "$(fact <(facts $N.json) iterations)" = 12000 -a \
	"$(fact <(facts $N.json) threads)" = 1200
check "a ring larger than a program can map is refused in one line" \
	"$L run exec --threads 1000000 -- true" 2 '^latctl: exec: 1000000 threads x [0-9]+ iterations is a [0-9]+ TiB ring, more than the 16 TiB a program can map; lower --threads or --iters$'
S=$TMPD/sys1100
check "system calls of 1100 Python threads one after another" \
	"$L run exec --mode syscalls --json $S.json -- python3 -c 'import threading, os
for _ in range(1100):
    t = threading.Thread(target=os.getppid); t.start(); t.join()' > $S.txt 2>&1" 0 ''
ok "... every thread a stream of its own ($(fact <(facts $S.json) threads) threads)" \
	test "$(fact <(facts $S.json) threads)" -gt 1100
M=$TMPD/misuse
check "an end without a begin and a begin while one is open" "$(keep $M.txt "$L run exec --json $M.json -- $B/markers_prog misuse 500")" 0 \
	'end without begin: 1, begin while one was open: 1,'

P=$TMPD/py
if command -v python3 > /dev/null; then
	check "the Python ctypes example" "$(keep $P.txt "LATCTL_LIB=$LIB $L run exec --json $P.json -- python3 $TESTS_DIR/user/markers/examples/loop.py 3000")" 0 \
		'touched 3000 pages; under latctl: True'
	facts $P.json > $P.f
	ok "... 3000 iterations" test "$(fact $P.f iterations)" = 3000
	ok "... a fault in every slow iteration, as in C ($(fact $P.f present_fault) of $(fact $P.f slow))" \
		test "$(fact $P.f present_fault)" = "$(fact $P.f slow)" -a "$(fact $P.f slow)" -gt 0
	# Python's threading, 100 threads at once through ctypes
	cat > $TMPD/py100.py <<-'PY'
	import ctypes, os, threading
	lib = ctypes.CDLL(os.environ["LATCTL_LIB"])
	go = threading.Barrier(100)
	def loop():
	    go.wait()
	    for _ in range(200):
	        lib.latctl_begin(); lib.latctl_end()
	ts = [threading.Thread(target=loop) for _ in range(100)]
	for t in ts: t.start()
	for t in ts: t.join()
	PY
	check "100 Python threads at once" "LATCTL_LIB=$LIB $L run exec --json $P.100.json -- python3 $TMPD/py100.py 2>&1 >/dev/null" 0 \
		'^iterations: latctl_begin\(\) to latctl_end\(\) of 100 threads in 1 process$'
	ok "... keep all 20000" test "$(fact <(facts $P.100.json) iterations)" = 20000
else
	ok "# SKIP python3 is not installed" true
fi

C=$TMPD/calls
check "a program without markers" "$(keep $C.txt "$L run exec --json $C.json -- $B/calls 10")" 0 \
	'^iterations: no markers were used, so each system call of the command is one \(1 thread in 1 process; all of them, whatever --iters says\)'
facts $C.json > $C.f
ok "... its system calls are the iterations ($(fact $C.f iterations))" test "$(fact $C.f iterations)" -ge 520
ok "... the slow ones are named: munmap ($(fact $C.f slow_munmap) of $(fact $C.f slow))" \
	test "$(fact $C.f slow_munmap)" -ge 4 -a "$(fact $C.f slow_munmap)" -ge $(($(fact $C.f slow) - 1))
check "... in the slowest list" "cat $C.txt" 0 'inside munmap'
if [ "$(nproc)" -ge 2 ] && command -v python3 > /dev/null; then
	# sched_setaffinity to the other CPU moves the thread inside the call
	G=$TMPD/affinity
	check "system calls that move their thread to the other CPU" \
		"$(keep $G.txt "$L run exec --json $G.json -- python3 -c 'import os
for i in range(200): os.sched_setaffinity(0, {i % 2})'")" 0 \
		'^migrations seen: [0-9]+ inside an iteration'
	ok "... are counted as moved inside an iteration ($(sed -n 's/^migrations seen: \([0-9]*\) inside.*/\1/p' $G.txt), 150 wanted)" \
		test "$(sed -n 's/^migrations seen: \([0-9]*\) inside.*/\1/p' $G.txt)" -ge 150
fi
check "--mode syscalls on a marked program: its markers are said, not denied" \
	"$L run exec --mode syscalls -- $B/markers_prog fault 100 2>&1 >/dev/null" 0 \
	'^iterations: each system call of the command \(1 thread in 1 process; all of them, whatever --iters says\), as --mode syscalls asks; its 100 marked iterations are not these$'
check "a program that only calls latctl_end(): said, and its losses counted" \
	"$L run exec -- $B/markers_prog endonly 500" 0 \
	'^iterations: each system call .*since its markers were used wrongly: no latctl_begin\(\) to latctl_end\(\) pair !'
check "... end without begin: 500" "$L run exec -- $B/markers_prog endonly 500" 0 'end without begin: 500,'
check_err "... with --mode markers: one line with the counts, exit 1" \
	"$L run exec --mode markers -- $B/markers_prog endonly 500 >/dev/null" 1 \
	'no latctl_begin\(\) to latctl_end\(\) pair: 500 ends without a begin'
check "a program that drops root (setpriv to nobody) keeps its markers: by the inherited descriptor" \
	"$L run exec -- setpriv --reuid=65534 --regid=65534 --clear-groups $B/markers_prog fault 1000" 0 \
	'^iterations: latctl_begin\(\) to latctl_end\(\) of 1 thread in 1 process'
check "... without the descriptor it cannot map the ring, and says so" \
	"$L run exec -- setpriv --reuid=65534 --regid=65534 --clear-groups env -u LATCTL_RING_FD $B/markers_prog fault 1000" 0 \
	"^liblatctl: pid [0-9]+ cannot map latctl's ring \\(descriptor none, /proc/[0-9]+/fd/[0-9]+\\): its markers are not recorded"
check_err "unmarked, without a backend: said what is needed, the program's status kept" \
	"$L run exec --backend none --mode syscalls -- sh -c 'exit 3'" 3 'no system call of it was recorded: that needs latmon or the BPF backend'
check "--mode markers keeps no system call" "$L run exec --mode markers -- $B/calls 2" 1 'no marker was written: the command never called latctl_begin'

D=$TMPD/dur
SECONDS=0
check "--duration stops a command that runs on" "$L run exec --duration 1s --json $D.json -- sleep 60 > $D.txt" 0 ''
ok "... within the grace period ($SECONDS s)" test "$SECONDS" -le 6
check "... says so on stderr" "cat /dev/null; $L report $D.json" 0 \
	'stopped by latctl \(--duration 1 s\): SIGINT, then killed by SIGINT'
check "... and one that ignores SIGINT: each signal it took said" \
	"$L run exec --duration 1s -- sh -c 'trap \"\" INT; sleep 30'" 0 \
	'stopped by latctl \(--duration 1 s\): SIGINT, SIGTERM 3 s later, then killed by SIGTERM'
# What the command started is stopped with it: latctl is their subreaper,
# so a process whose parent ended is still found (before: sh took the
# SIGKILL, its sleep ran on under PID 1). The sleeps' odd lengths name them.
check "--duration: a shell that ignores INT and TERM, and its sleep, are both stopped" \
	"$L run exec --duration 1s -- sh -c 'trap \"\" INT TERM; sleep 31.25'" 0 \
	'SIGINT, SIGTERM 3 s later, SIGKILL 3 s later, then killed by SIGKILL'
ok "... no process of it is left" bash -c '! pgrep -f "sleep 31[.]25"'
check "--duration: background jobs (SIGINT ignored) stopped with their shell, status 0" \
	"$L run exec --duration 1s -- sh -c 'sleep 32.25 & sleep 32.25 & wait'" 0 \
	'stopped by latctl \(--duration 1 s\): SIGINT, SIGTERM 3 s later'
ok "... no process of it is left" bash -c '! pgrep -f "sleep 32[.]25"'
Z=$TMPD/z
seq 1 200000 >$Z.txt
check "gzip -c under latctl: the archive on stdout is whole" \
	"cd $TMPD && $L run exec -- gzip -c $Z.txt > $Z.gz 2>$Z.rep && gzip -t $Z.gz && zcat $Z.gz | cmp - $Z.txt" 0 ''
check "... and its report on stderr" "cat $Z.rep" 0 '^command: gzip -c .* exited with status 0'
check_err "--json - with exec: refused, the program owns stdout" "$L run exec --json - -- true" 2 \
	'give --json FILE, not --json -'
check "options stop at the command without --: head -n 2 is head's" \
	"$L run exec head -n 2 $Z.txt 2>/dev/null | tr '\\n' ' '" 0 '^1 2 $'
check "... with --repeat too: each run's command is head -n 2" \
	"$L run exec --repeat 2 head -n 2 $Z.txt 2>/dev/null | tr '\\n' ' '" 0 '^1 2 1 2 $'
check "a program's own exit 127 is its status, with the report (--mode syscalls)" \
	"$L run exec --mode syscalls -- sh -c 'exit 127'" 127 'exited with status 127'
check "... and a command not found by its shell" "$L run exec --mode syscalls -- sh -c nosuchcommand-latctl" 127 \
	'command: sh -c nosuchcommand-latctl .*exited with status 127'
check_err "a program that fails before any marker (auto): its status, one line, no report" \
	"$L run exec -- sh -c 'exit 3'" 3 \
	'exec: sh exited with status 3 before any marker: no report \(--mode syscalls reports'
check_err "... killed by a signal before any marker: 128 + N, said so" \
	"$L run exec -- sh -c 'kill -9 \$\$'" 137 'exec: sh was killed by SIGKILL before any marker'

printf '#!/nonexistent/interpreter\n' >$TMPD/badinterp
chmod +x $TMPD/badinterp
check_err "a program that cannot be exec'd: 127, one line, no report" "$L run exec -- $TMPD/badinterp" 127 \
	"cannot run '.*badinterp': No such file or directory"
# timeout(1) sends SIGINT to latctl and then to its process group: two at
# once, once the command runs: after twice what a whole run of `true`
# takes here (set-up, report), measured first
SECONDS=0
"$L" run exec -- true >/dev/null 2>&1
wait_s=$((2 * SECONDS + 2))
check "SIGINT twice at once (timeout -s INT after $wait_s s): the report of what was measured" \
	"timeout -s INT $wait_s $L run exec --json $TMPD/twice.json -- sleep 120; echo rc=\$?" 0 \
	'INTERRUPTED by SIGINT after [0-9]+ iterations: everything below'
ok "... and its result file" test -s $TMPD/twice.json
check "a failing command's status is latctl's, after the report" "$L run exec --mode syscalls -- sh -c 'exit 3'" 3 \
	'exited with status 3'
check "a command killed by a signal: 128 + N" "$L run exec --mode syscalls -- sh -c 'kill -9 \$\$'" 137 'killed by SIGKILL'

check "--repeat 3 runs the command 3 times" "$L run exec --repeat 3 --json $TMPD/rep.json -- $B/markers_prog fault 2000" 0 ''
ok "... the pooled runs hold 6000 iterations" test "$(json_get $TMPD/rep.json runs 2 run iterations 2>/dev/null || json_get $TMPD/rep.json summary count)" -ge 2000
check "compare works on its results" "cp $F.json $F-2.json && $L compare $F.json $F-2.json" 0 'p99'
check "check works on its results" "$L check --max p50=1s $F.json" 0 ''
# latctl ignores SIGPIPE (a closed pipe is its EPIPE); the command it runs
# gets it back: bit 13 of its SigIgn mask clear.
sigign=$("$L" run exec --backend none -q -- sh -c 'grep SigIgn /proc/self/status' 2>/dev/null | awk '{ print $2 }')
ok "the command's SIGPIPE is not ignored (SigIgn ${sigign:-missing})" \
	bash -c "[ -n '$sigign' ] && (( ((16#$sigign) >> 12 & 1) == 0 ))"
done_testing

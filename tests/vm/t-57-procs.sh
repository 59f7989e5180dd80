# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# Targets that span processes: a target with 64 threads that each fork a
# child which faults pages and exits. Every child's fault records are its own
# wait4 fault count, every thread and child leaves the thread table when it
# exits (GET_STATS: 1 live, 129 followed, none refused), the limit refuses
# with a clear error (START on a process with too many threads) or counts
# what it did not follow (forks beyond it). Then the syscall source: one
# record per getppid() call, named by number. Sourced by suite.sh.
NR_GETPPID=110		# x86-64

load
check "GET_INFO: the syscall source is available" \
	"lmtool info" 0 '^source syscall id=[0-9]+ state=available missing=0 '
check "GET_INFO: the wait source is available" \
	"lmtool info" 0 '^source wait id=[0-9]+ state=available missing=0 '
check "GET_INFO: up to 1024 targets at once" "lmtool info" 0 '^threads max=1024$'

lmtool record --mask fault,sched,syscall --events fork.bin -- \
	lmprocs fork --threads 64 --pages 16 >fork.out 2>&1
grep -v 'child pid' fork.out | sed 's/^/# /'
lmtool stats >fork.stats
check "64 threads forked 64 children" "cat fork.out" 0 'threads=64 children=64'
lmtool read --events fork.bin | awk '$1 == "fault" && $0 !~ /flags=[^ ]*(retry|error|major)/ {
	for (i = 2; i <= NF; i++) if ($i ~ /^pid=/) { split($i, a, "="); n[a[2]]++ } }
	END { for (p in n) print p, n[p] }' | sort >fork.faults
awk '/child pid=/ { split($3, a, "="); split($4, b, "="); print a[2], b[2] }' fork.out |
	sort >fork.rusage
check "every child's fault records == its own wait4 minflt (64 children)" \
	"awk 'NR == FNR { n[\$1] = \$2; next } { k++; if (n[\$1] != \$2) { bad++; print \$1, n[\$1], \$2 } }
	END { print k + 0, \"children,\", bad + 0, \"differ\" }' fork.faults fork.rusage" \
	0 '^64 children, 0 differ$'
check "no thread-table entry leaked: 1 live (the main thread), 129 followed, 0 refused" \
	"cat fork.stats" 0 '^threads live=1 followed=129 refused=0$'
check "syscall records of 65 processes: the target and its 64 children" \
	"lmtool read --events fork.bin --type syscall | awk '{ print \$4 }' | sort -u | wc -l" 0 '^65$'
check "per-CPU seq numbers are contiguous from 0" "seq_gaps fork.bin" 0 '^0$'

lmtool record --mask syscall --events sys.bin -- lmprocs getppid --calls 1000 >sys.out 2>&1
check "getppid x1000: 1000 syscall records nr=$NR_GETPPID" \
	"count_where sys.bin '\$1 == \"syscall\" && f[\"nr\"] == $NR_GETPPID'" 0 '^1000$'
check "getppid returns the parent's pid (lmtool's)" \
	"lmtool read --events sys.bin | grep -m1 ' nr=$NR_GETPPID '" 0 " ret=[1-9][0-9]* "
check "the syscall records are the target's own, entry before exit" \
	"count_where sys.bin '\$1 == \"syscall\" && f[\"dur\"] + 0 <= 0'" 0 '^0$'

unload
insmod "$KO" max_threads=8
check "max_threads=8: threads beyond the limit are counted, not followed" \
	"lmtool record --mask fault --events lim.bin -- lmprocs fork --threads 16 >/dev/null; lmtool stats" \
	0 '^threads live=1 followed=([89]|[1-9][0-9]) refused=[1-9][0-9]*$'
unload
insmod "$KO" max_threads=1
# contends until killed below, however slow the guest
bg lmprocs contend --seconds 600
sleep 1
check "max_threads=1: START on a process with 2 threads fails with a clear error" \
	"out=\$(lmtool start --tgid ${BG_PIDS##* } 2>&1); echo status=\$? \$out" 0 \
	'^status=[1-9] .*more threads than latmon follows .*max_threads'
check "max_threads=1: nothing runs after the failed START" "lmtool info" 0 'running 0 '
kill $BG_PIDS 2>/dev/null; wait 2>/dev/null; BG_PIDS=""
unload
check "max_threads=0 is refused at load" "insmod $KO max_threads=0 || echo status=\$?" 0 'status=[1-9]'
load

# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# Workloads that span processes and threads, joined: mmap's two forked
# workers are followed (every stream joined), each worker's fault events
# are its own wait4 fault count, and its slow operations are named by their
# system call (mmap/munmap) in the join and in the LKML-style log lines.
# alloc's first 256 KiB call shows its mmap and its faults; alloc --threads
# joins every thread. Sourced by suite.sh.
. "$(dirname "${BASH_SOURCE[0]}")/join-lib.sh"

load
ok "latctl run mmap --procs 2 --duration 2s with latmon" \
	jrun mmap2 mmap --procs 2 --duration 2s
ok "mmap: recorded with latmon" recorded mmap2
streams=$(jget mmap2 causes.streams)
joined=$(jget mmap2 causes.streams_joined)
ok "mmap: every worker's stream joined ($joined of $streams)" [ "$streams" = 2 -a "$joined" = 2 ]
for k in 0 1; do
	pid=$(jget mmap2 "extras.per_process.$k.pid")
	tid=$(jget mmap2 "causes.stream_faults.$k.tid")
	rus=$(jget mmap2 "extras.per_process.$k.minor_faults")
	ev=$(jget mmap2 "causes.stream_faults.$k.fault_events")
	ok "mmap worker $k (pid $pid): its fault events == its wait4 minflt ($ev == $rus)" \
		[ "$tid" = "$pid" -a "$ev" = "$rus" ]
done
check "mmap: latmon followed latctl's threads and both workers, none refused" \
	"jget mmap2 latmon.threads" 0 '"followed":([3-9]|[1-9][0-9]).*"refused":0'
slow=$(jget mmap2 slow.count)
named=$(jcount mmap2 'f["syscall.name"] == "mmap" || f["syscall.name"] == "munmap"')
other=$(jcount mmap2 'f["syscall.name"] != "" && f["syscall.name"] != "mmap" && f["syscall.name"] != "munmap"')
ok "mmap: slow operations inside a named mmap/munmap call ($named of $slow; $other inside another call)" \
	[ "$slow" -gt 0 -a "$named" -gt 0 -a "$other" = 0 ]
"$LATCTL" report mmap2.json >mmap2.txt 2>&1
grep -A1 -m3 ' took ' mmap2.txt | sed 's/^/# /'
check "mmap: the log lines of slow operations say what each was" \
	"grep -A1 ' took ' mmap2.txt" 0 '^ +(mmap|munmap) [0-9.]+ (us|ms): [a-z-]+ [0-9<]+%'
check "mmap: the ten slowest name the call they were inside" \
	"cat mmap2.txt" 0 'inside (mmap|munmap)'

# --slow p99 (the 20 slowest of 2000): under TCG a host preemption can
# outlast the first call's 64 faults, and p99.9 lists only two.
ok "latctl run alloc --iters 2000 --slow p99 with latmon" \
	jrun alloc1 alloc --iters 2000 --slow p99
first=$(jcount alloc1 'f["index"] == 0')
ok "alloc: the first 256 KiB call is among the 20 slowest" [ "$first" = 1 ]
n=$(jcount alloc1 'f["index"] == 0 && $0 ~ /(^| )syscalls_by_name\.[0-9]+\.name=mmap( |$)/ && f["faults"] >= 64')
jcheck rows alloc1.json slow.iterations | grep -m1 ' index=0 ' | tr ' ' '\n' |
	grep -E '^(syscall|faults|primary)' | tr '\n' ' ' | sed 's/^/# first call: /; s/$/\n/'
ok "alloc: the first call shows an mmap system call and its faults (>= 64)" [ "$n" = 1 ]
ok "latctl run alloc --threads 2 --iters 2000 with latmon" \
	jrun alloc2 alloc --threads 2 --iters 2000
ok "alloc --threads 2: every thread's stream joined" \
	[ "$(jget alloc2 causes.streams)" = "$(jget alloc2 causes.streams_joined)" ]

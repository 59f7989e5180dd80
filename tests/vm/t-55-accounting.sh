# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# Exact accounting per CPU. A target pinned to one CPU makes N
# faults (getrusage): on that CPU fault records + the lost records' counts
# == N, on the other CPUs nothing. Then, with the target free to move, a
# second fault storm and a spinner as load, and a reader that keeps up or
# not: per CPU the stream read agrees with GET_STATS (recorded, dropped,
# read, lost records), and over all CPUs delivered + lost == N.
# Sourced by suite.sh.
PAGES=3000

# Pinned to CPU $1, a 4-slot ring, no reader until STOP.
pinned_run() {
	local cpu=$1 other=$((1 - $1))
	lmtool record --mask fault --buffer 4 --no-read --events pin$cpu.bin -- \
		taskset -c "$cpu" lmtouch --pages $PAGES >pin$cpu.out 2>&1
	n=$(field minflt <pin$cpu.out)
	ring_counts pin$cpu.bin fault >pin$cpu.cpus
	sed 's/^/# /' pin$cpu.cpus
	lmtool stats >pin$cpu.stats
	mine=$(kv_awk -v c="$cpu" '$2 == c { print f["records"] + f["lost"] }' pin$cpu.cpus)
	is "pinned to CPU $cpu: its fault records + lost == getrusage minor faults" "${mine:-none}" "$n"
	check "pinned to CPU $cpu: a lost record on CPU $cpu" \
		"awk '\$2 == $cpu' pin$cpu.cpus" 0 'lost_records=[1-9]'
	check "pinned to CPU $cpu: nothing recorded or lost on CPU $other" \
		"grep '^cpu $other ' pin$cpu.stats" 0 "recorded=0 dropped=0 "
	check "pinned to CPU $cpu: the stream agrees with GET_STATS per CPU" \
		"ring_counts_disagree pin$cpu.cpus pin$cpu.stats" 0 '^$'
}

# Free to move, under load; $1: buffer slots, $2: --no-read or empty.
loaded_run() {
	local name=$1 slots=$2 noread=$3
	bg spin --cpu 0 --seconds 30
	bg sh -c 'while :; do lmtouch --pages 2000 >/dev/null; done'
	lmtool record --mask fault --buffer "$slots" $noread --events load.bin -- \
		lmtouch --pages $PAGES --hop >load.out 2>&1
	kill $BG_PIDS 2>/dev/null; wait 2>/dev/null; BG_PIDS=""
	n=$(field minflt <load.out)
	ring_counts load.bin fault >load.cpus
	sed 's/^/# /' load.cpus
	lmtool stats >load.stats
	all=$(kv_awk '{ s += f["records"] + f["lost"] } END { print s + 0 }' load.cpus)
	is "$name: delivered + lost == getrusage minor faults over all CPUs" "$all" "$n"
	check "$name: the stream agrees with GET_STATS per CPU" \
		"ring_counts_disagree load.cpus load.stats" 0 '^$'
	check "$name: faults on both CPUs" "wc -l <load.cpus" 0 '^2$'
}

load
pinned_run 0
pinned_run 1
loaded_run "under load, 16 slots, no reader" 16 --no-read
check "under load, 16 slots, no reader: some faults lost" "cat load.cpus" 0 'lost=[1-9]'
loaded_run "under load, 4096 slots, a reader" 4096 ""

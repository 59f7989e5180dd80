# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# The wait source: a process whose second thread flips a region's protection
# with mprotect while the first maps, touches and unmaps pages contends for
# its own mmap_lock: mmap_lock waits recorded, each woken by the other
# thread; alone (no second thread), none. Then exact accounting with every
# source on, all record types counted: per CPU the stream agrees with
# GET_STATS (records == recorded, lost counts == dropped, read == records +
# lost records), with a full ring and with a reader. Sourced by suite.sh.

load
lmtool record --mask sched,wait --events cont.bin -- lmprocs contend --seconds 2 >cont.out 2>&1
sed 's/^/# /' cont.out
locks=$(count_where cont.bin '$1 == "lock" && f["kind"] == "mmap_lock"')
echo "# mmap_lock waits: $locks, TLB shoot-downs sent: $(count_where cont.bin '$1 == "tlb" && f["kind"] == "sent"')"
ok "contended (mprotect thread): mmap_lock waits recorded ($locks)" [ "$locks" -gt 0 ]
check "every mmap_lock wait slept at least once and began before it ended" \
	"count_where cont.bin '\$1 == \"lock\" && (f[\"sleeps\"] + 0 < 1 || f[\"dur\"] + 0 <= 0)'" 0 '^0$'
check "wake-ups of the target by its own other thread (flag target)" \
	"count_where cont.bin '\$1 == \"wake\" && f[\"wflags\"] ~ /0x[23]/'" 0 '^[1-9][0-9]*$'
check "every wake-up names its waker's CPU and comm" \
	"count_where cont.bin '\$1 == \"wake\" && (f[\"waker_comm\"] == \"\" || f[\"waker_cpu\"] == \"\")'" 0 '^0$'

lmtool record --mask sched,wait --events alone.bin -- lmprocs contend --seconds 2 --alone >alone.out 2>&1
sed 's/^/# /' alone.out
check "alone (no second thread): no mmap_lock wait" \
	"count_where alone.bin '\$1 == \"lock\"'" 0 '^0$'

lmtool record --buffer 64 --no-read --events full.bin -- lmprocs contend --seconds 1 >/dev/null 2>&1
ring_counts full.bin >full.cpus
sed 's/^/# full ring: /' full.cpus
lmtool stats >full.stats
check "every source, a 64-slot ring and no reader: events lost" "cat full.cpus" 0 'lost=[1-9]'
check "every source, a 64-slot ring: the stream agrees with GET_STATS per CPU" \
	"ring_counts_disagree full.cpus full.stats" 0 '^$'
lmtool record --events read.bin -- lmprocs contend --seconds 1 >/dev/null 2>&1
ring_counts read.bin >read.cpus
sed 's/^/# with a reader: /' read.cpus
lmtool stats >read.stats
check "every source, a reader: the stream agrees with GET_STATS per CPU" \
	"ring_counts_disagree read.cpus read.stats" 0 '^$'
check "every record type of every source is known (no unknown type)" \
	"lmtool read --events read.bin --count" 0 ' unknown=0 '

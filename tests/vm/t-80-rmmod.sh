# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# The device: whole records, one reader, blocked readers, rmmod with a
# session or a reader. Sourced by suite.sh.

load
check "read() with a buffer smaller than a record fails with EINVAL" \
	"lmtool read --nonblock --bufsize 8" 1 'Invalid argument'
bg sleep 60
idle=$!
lmtool start --tgid "$idle"
lmtool read >reader.out 2>&1 &
reader=$!
BG_PIDS="$BG_PIDS $reader"
reader_done() { ! kill -0 "$reader" 2>/dev/null && wait "$reader"; }
sleep 1
check "the reader of a quiet session is blocked in read()" "kill -0 $reader" 0 ''
check "a second reader gets EBUSY" "lmtool read --nonblock" 1 'Device or resource busy'
check "rmmod fails cleanly while the reader holds the device" "rmmod latmon" 1 ''
check "the module still answers after the refused rmmod" "lmtool info" 0 "running 1 tgid $idle"
lmtool stop
for _ in $(seq 50); do kill -0 "$reader" 2>/dev/null && sleep 0.1; done
ok "STOP wakes the blocked reader, which ends at EOF" reader_done
check "rmmod succeeds once the reader closed" "rmmod latmon && ! grep -q '^latmon ' /proc/modules" 0 ''
load
lmtool start --tgid "$idle"
check "rmmod works while a session runs" "rmmod latmon" 0 ''
kill "$idle" 2>/dev/null
load
check "the module loads again after that" "lmtool info" 0 'running 0'

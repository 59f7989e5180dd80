# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# A tiny ring and no reader: delivered + lost == generated, and the lost
# record is in the stream. Sourced by suite.sh.
PAGES=2000

load
lmtool record --mask fault --buffer 4 --no-read --events loss.bin -- lmtouch --pages $PAGES \
	>loss.out 2>&1
sed 's/^/# /' loss.out
generated=$(field minflt <loss.out)
lmtool read --events loss.bin --count >loss.count
sed 's/^/# /' loss.count
delivered=$(field fault <loss.count)
lost=$(field lost_events <loss.count)
lmtool stats >loss.stats
ok "faults delivered + lost == generated ($delivered + $lost == $generated)" \
	[ $((delivered + lost)) = "$generated" ]
check "a lost record is in the stream" "field lost <loss.count" 0 '^[1-9][0-9]*$'
check "GET_STATS dropped == the lost records' count ($lost)" \
	"grep '^total' loss.stats | field dropped" 0 "^$lost\$"
check "GET_STATS read == recorded + lost records" \
	"kv_awk '/^total/ { print f[\"read\"] + 0 == f[\"recorded\"] + f[\"lost_records\"] ? \"equal\" : \"differ: \" \$0 }' loss.stats" 0 '^equal$'
check "per-CPU seq numbers stay contiguous across the lost record" "seq_gaps loss.bin" 0 '^0$'

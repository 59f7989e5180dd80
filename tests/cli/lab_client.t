#!/bin/bash
# SPDX-License-Identifier: MIT
# The bisect's LAVA client (scripts/lava/lab-client.py) against a stand-in
# for a server's REST API v0.2 (tests/lava/stub_lava.py, python3's
# http.server): a job that completes gives its result, device and health;
# one Incomplete is submitted again; one that never finishes is canceled at
# its deadline; a result missing from the log, a status that is not JSON,
# all retried, then 125 naming the jobs and why; a refused token, a server
# that does not answer, a device type the lab lacks, no token at all: one
# line and 128 before anything else.
. "$(dirname "$0")/engine.sh"

L=$LATCTL
C=$TESTS_DIR/scripts/lava/lab-client.py
S=$TESTS_DIR/tests/lava/stub_lava.py
command -v python3 >/dev/null || skip_all "no python3 (scripts/deps.sh installs it)"

ok "a result for the stub's logs" "$L" run grow --iters 20000 --quiet --json "$TMPD/r.json"
printf 'job: latctl\n' >"$TMPD/job.yaml"
STUBS=""
stop_stubs() {
	local p
	for p in $STUBS; do kill "$p" 2>/dev/null; done
	rm -rf "$TMPD"
}
trap stop_stubs EXIT

# stub NAME SCRIPT: a stub server for SCRIPT; its URL in $URL.
stub() {
	rm -f "$TMPD/$1.port"
	python3 "$S" "$TMPD/$1.port" sekrit "$TMPD/r.json" "$2" &
	STUBS="$STUBS $!"
	for _ in $(seq 100); do [ -s "$TMPD/$1.port" ] && break; sleep 0.05; done
	URL=http://127.0.0.1:$(cat "$TMPD/$1.port")
}
export LATCTL_LAVA_TOKEN=sekrit
BOOT="--job $TMPD/job.yaml --poll 0.05 --deadline 3"

stub ok complete
check "check: the device type and its devices" "$C check --url $URL --device-type qemu" 0 \
	'^lab: http://127.0.0.1:[0-9]+: device type qemu, 2 device\(s\): qemu01 qemu02$'
check "boot: a job that completes gives its result" "$C boot --url $URL $BOOT --out $TMPD/ok" 0 \
	'^lab: job 100 on qemu01: Complete, 1 result\(s\)$'
check "... the result reads as a latctl result" "$L report $TMPD/ok/r.json" 0 '^grow'
check "... job.json names the job, its device and health" "cat $TMPD/ok/job.json" 0 '"device": "qemu01"'
ok "... the token went in the Authorization header, never the URL" \
	bash -c "! grep -q sekrit '$TMPD/ok.port.log'"

stub retry incomplete,complete
check "an Incomplete job is submitted again and named" "$C boot --url $URL $BOOT --out $TMPD/retry" 0 \
	'^lab: job 101 on qemu02: Complete, 1 result\(s\); after job 100 on qemu01 ended Incomplete$'

stub bad incomplete,canceled,incomplete
check_err "Incomplete and Canceled every time: 125 with the jobs and why" \
	"$C boot --url $URL $BOOT --out $TMPD/bad --retries 2" 125 \
	'no result after 3 job\(s\): job 100 on qemu01 ended Incomplete, job 101 on qemu02 ended Canceled, job 102 on qemu01 ended Incomplete$'

stub never never
check_err "a job that never finishes is canceled at its deadline" \
	"$C boot --url $URL --job $TMPD/job.yaml --poll 0.05 --deadline 1 --out $TMPD/never --retries 0" 125 \
	'job 100 on qemu01 not finished within 1 s of its start \(canceled\)$'
ok "... and the stub was asked to cancel it" grep -q '^GET /api/v0.2/jobs/100/cancel/' "$TMPD/never.port.log"

stub queued queued
check_err "a job no device takes is canceled at --queue-deadline" \
	"$C boot --url $URL --job $TMPD/job.yaml --poll 0.05 --deadline 60 --queue-deadline 1 --out $TMPD/queued --retries 0" 125 \
	'job 100 not started within 1 s \(canceled\)$'

stub nolog nolog
check_err "a log without a result: retried, then 125" \
	"$C boot --url $URL $BOOT --out $TMPD/nolog --retries 1" 125 \
	'job 100 on qemu01 no latctl result in its log, job 101 on qemu02 no latctl result in its log$'

stub badjson badjson
check_err "a status that is not JSON: retried, then 125" \
	"$C boot --url $URL $BOOT --out $TMPD/badjson --retries 0" 125 'jobs/100/: not JSON'

stub tok complete
check_err "a refused token: 128 before anything" \
	"LATCTL_LAVA_TOKEN=wrong $C check --url $URL --device-type qemu" 128 'refused the token \(HTTP 401\)$'
check_err "a device type the lab lacks: 128" \
	"$C check --url $URL --device-type arm64" 128 'has no device type arm64$'
check_err "no token: 128, saying where one goes" \
	"env -u LATCTL_LAVA_TOKEN $C check --url $URL --device-type qemu" 128 \
	'no token: set LATCTL_LAVA_TOKEN or LATCTL_LAVA_TOKEN_FILE$'
printf 'sekrit\n' >"$TMPD/token"
check "the token from a file" \
	"env -u LATCTL_LAVA_TOKEN LATCTL_LAVA_TOKEN_FILE=$TMPD/token $C check --url $URL --device-type qemu" 0 '^lab: '

# bisect-step.sh --lab and bisect-sections.sh: what a step cannot run on
# stops the bisect (128) before anything is built.
STEP=$TESTS_DIR/scripts/bisect/bisect-step.sh
SECT=$TESTS_DIR/scripts/bisect/bisect-sections.sh
T=$TMPD/tree
git init -q "$T" && printf 'kernel=6.12\nappend=\n' >"$T/testbed.conf" && git -C "$T" add testbed.conf &&
	git -C "$T" -c user.name=t -c user.email=t@t commit -q -m c1
LABRUN="cd $T && $STEP --results $TMPD/bs --lab $URL --max p99=1s"
check_err "bisect-step --lab: a refused token stops the bisect (128)" \
	"export LATCTL_LAVA_TOKEN=wrong; $LABRUN --lab-share $TMPD/share -- grow" 128 \
	'^bisect-step: .*refused the token \(HTTP 401\); stopping git bisect run$'
ok "... before anything was built" test ! -e "$TMPD/bs"
check_err "bisect-step --lab: a device type the lab lacks, 128" \
	"$LABRUN --lab-share $TMPD/share --lab-device-type arm64 -- grow" 128 'has no device type arm64; stopping git bisect run$'
check_err "bisect-step --lab without --lab-share: 128, saying what it is for" \
	"$LABRUN -- grow" 128 '--lab needs --lab-share DIR, where the lab.s workers fetch the kernel and the ramdisk'
mkdir -p "$TMPD/open" && chmod 0777 "$TMPD/open"
check_err "bisect-step --lab: a share other users can write (their kernel would boot): 128" \
	"$LABRUN --lab-share $TMPD/open -- grow" 128 'lab-share .*/open is writable by other users'
check_err "bisect-step --lab: a workload argument a job's shell would run: 128" \
	"$LABRUN --lab-share $TMPD/share -- grow '--iters=1;reboot'" 128 "'--iters=1;reboot' cannot go into a lab job's command"
check_err "bisect-sections.sh outside a bisect: 128" "cd $T && $SECT --sections 2 -- grow" 128 \
	'no bisect in .* run git bisect start BAD GOOD first$'
check_err "bisect-sections.sh --sections 0: 128" "cd $T && $SECT --sections 0 -- grow" 128 "'0': give 1 to 9"

# The device of each result (a lab's bisect step writes it): compare shows
# it, check says when the two sides ran on different devices.
ok "results of 4 runs" "$L" run grow --iters 20000 --repeat 4 --quiet --json "$TMPD/d.json"
for d in qemu01 qemu02; do
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["environment"]["device"] = sys.argv[2]
json.dump(d, open(sys.argv[3], "w"))' "$TMPD/d.json" "$d" "$TMPD/$d.json"
done
check "report: the lab device in the header" "$L report $TMPD/qemu01.json" 0 '^lab device: qemu01$'
check "compare: a row with each result's device" "$L compare $TMPD/qemu01.json $TMPD/qemu02.json" 0 \
	'^\* device +qemu01 +qemu02 *$'
check "compare: no device row where no result names one" \
	"$L compare $TMPD/d.json $TMPD/d.json | grep -c '^. device '" 1 '^0$'
# (the verdict of 4 runs against 4 may be good or cannot tell: either says it)
check "check: the verdict says the two sides' devices" \
	"$L check --baseline $TMPD/qemu01.json --metric p50 $TMPD/qemu02.json 2>&1; true" 0 \
	'^latctl check: (good|cannot tell \(125\)): .*\[devices: baseline qemu01; .*qemu02\.json qemu02\]$'
cp "$TMPD/qemu01.json" "$TMPD/qemu01-again.json"
check "check: nothing said of devices when they are the same" \
	"$L check --baseline $TMPD/qemu01.json --metric p50 $TMPD/qemu01-again.json 2>&1 | grep -c 'devices:'" 1 '^0$'

port=$(cat "$TMPD/tok.port")
kill ${STUBS##* } 2>/dev/null
wait ${STUBS##* } 2>/dev/null
check_err "a server that does not answer: 128" \
	"$C check --url http://127.0.0.1:$port --device-type qemu" 128 'does not answer'

done_testing

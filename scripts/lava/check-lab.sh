#!/bin/bash
# SPDX-License-Identifier: MIT
# make check-lab: a bisect whose boots are jobs on a real LAVA lab, as TAP.
#
#   scripts/lava/check-lab.sh [WORK]        (default build/check-lab)
#
# 1. scripts/lava/lab-up.sh brings a lab up from nothing in WORK/lab:
#    lava-server, PostgreSQL, two lava-worker processes with a QEMU device
#    each (qemu-01, qemu-02);
# 2. a planted history of a test-bed tree (Debian's 6.12 with latmon; 20
#    commits that differ in the kernel command line: transparent_hugepage=
#    always, then =never from c13, the first bad commit, so grow's faults
#    per push double; c8 names a kernel the test bed does not have), the
#    baseline recorded through the lab;
# 3. the serial reference: git bisect run with bisect-step.sh in this
#    machine's QEMU, one step after another;
# 4. the same history on the lab, scripts/bisect/bisect-sections.sh
#    --sections 2: two commits a round, one job per device;
# 5. again, with the worker of a running job killed (SIGKILL, with its
#    lava-run and QEMU): the lab's supervisor starts the worker again,
#    which reports the job ended (Incomplete), or, were the worker gone
#    for good, the job is canceled at --lab-deadline; either way the job
#    is submitted again and named, and the bisect still ends on the
#    planted commit;
# 6. scripts/lava/lab-down.sh leaves no process of the lab and its port free.
# Its figures (rounds, jobs, wall times) go to tests/BENCHMARKS.md.
. "$(dirname "$0")/../../tests/cli/engine.sh"

ROOT=$TESTS_DIR
W=${1:-$ROOT/build/check-lab}
LABDIR=$W/lab
PORT=${LATCTL_LAB_PORT:-8088}
STEP=$ROOT/scripts/bisect/bisect-step.sh
SECTIONS=$ROOT/scripts/bisect/bisect-sections.sh
N=20 BAD=13 BROKEN=8
WL=(grow --iters 2000000 --cpu 0)
JUDGE=(--repeat 4 --baseline "$W/good.json" --metric faults/iter --regression 50%)
export GIT_AUTHOR_NAME=latctl GIT_AUTHOR_EMAIL=latctl@example.org
export GIT_COMMITTER_NAME=latctl GIT_COMMITTER_EMAIL=latctl@example.org
export LATCTL_LAVA_TOKEN_FILE=$LABDIR/state/admin.token LATCTL_PROGRESS=0
mkdir -p "$W"
W=$(cd "$W" && pwd)
LABDIR=$W/lab

# The planted history in $W/tree (scripts/bisect/testbed-history.sh):
# c1..cN, transparent_hugepage=never from c$BAD on, c$BROKEN unbuildable.
plant_history() {
	rm -rf "$W/tree"
	mapfile -t C < <("$ROOT/scripts/bisect/testbed-history.sh" "$W/tree" "$N" "$BAD" "$BROKEN")
	[ "${#C[@]}" = "$N" ]
}
c() { echo "${C[$1 - 1]}"; }

# Start a bisect of the whole history in the tree.
bisect_start() {
	git -C "$W/tree" bisect reset -q >/dev/null 2>&1
	git -C "$W/tree" worktree prune
	(cd "$W/tree" && git bisect start "$(c "$N")" "$(c 1)" >/dev/null)
}

lab_opts() { echo --lab "$URL" --lab-share "$LABDIR/share"; }

# The jobs of the lab, "id state health device" a line.
jobs_list() {
	curl -sf -H "Authorization: Token $(cat "$LATCTL_LAVA_TOKEN_FILE")" "$URL/api/v0.2/jobs/?limit=200" |
		python3 -c 'import json, sys
for j in json.load(sys.stdin)["results"]:
    print(j["id"], j["state"], j["health"], j["actual_device"])'
}

# Kill lava-worker $1 of this lab with all it started (lava-run, QEMU).
kill_worker() {
	local pid="" all p
	for p in $(pgrep -f "lava-worker --name $1 "); do
		[ "$(readlink "/proc/$p/root")" = "$LABDIR/root" ] && pid=$p
	done
	[ -n "$pid" ] || return 1
	all=$pid
	for _ in 1 2 3 4; do
		for p in $all; do
			all="$all $(pgrep -P "$p")"
		done
	done
	# shellcheck disable=SC2046,SC2086
	kill -KILL $(printf '%s\n' $all | sort -u)
}

# Once a job runs, kill the worker of its device; the job's id and device
# into $W/killed.
kill_during_job() {
	local id dev
	for _ in $(seq 300); do
		read -r id dev < <(jobs_list | awk '$2 == "Running" && $4 != "None" { print $1, $4; exit }')
		if [ -n "$id" ]; then
			sleep 20	# well inside the boot or the runs
			kill_worker "lab-worker-${dev#qemu-0}" && echo "$id $dev" >"$W/killed"
			return
		fi
		sleep 1
	done
}

"$ROOT/scripts/lava/lab-down.sh" --dir "$LABDIR" --purge >/dev/null 2>&1
rm -rf "$W"/{base,serial,sections,killed-run,good.json,killed,jobs.txt,serial.txt,sections.txt,killed.txt}
chroot_state="made first"
"$ROOT/scripts/testbed/chroot.sh" lab --cached && chroot_state=cached
t=$SECONDS
_run "'$ROOT/scripts/lava/lab-up.sh' --dir '$LABDIR' --port $PORT --workers 2"
URL=$OUT
ok "the lab comes up from nothing: $URL" test "$RC" = 0 -a "$URL" = "http://127.0.0.1:$PORT"
echo "# lab-up from nothing: $((SECONDS - t)) s (the lab's chroot $chroot_state)"
check "its API: device type qemu with two devices" \
	"python3 $ROOT/scripts/lava/lab-client.py check --url $URL --device-type qemu" 0 'qemu-01 qemu-02'
ok "the admin token is root's alone" bash -c "[ \$(stat -c %a '$LABDIR/state/admin.token') = 600 ]"
check "a second lab-up reuses the lab that is up" "'$ROOT/scripts/lava/lab-up.sh' --dir '$LABDIR' --port $PORT" 0 \
	"^http://127.0.0.1:$PORT\$"

ok "the planted history: $N commits, first bad c$BAD, c$BROKEN unbuildable" plant_history
git -C "$W/tree" checkout -q "$(c 1)"
# shellcheck disable=SC2046
check "c1: the baseline recorded through the lab" \
	"$STEP --tree $W/tree --results $W/base $(lab_opts) --repeat 4 --record $W/good.json -- ${WL[*]}" 0 \
	'lab: job [0-9]+ on qemu-0[12]: Complete'

# Serial: this machine's QEMU, one step after another.
bisect_start
t=$SECONDS
_run "cd $W/tree && git bisect run $STEP --results $W/serial ${JUDGE[*]} -- ${WL[*]}"
SERIAL_S=$((SECONDS - t))
printf '%s\n' "$OUT" >"$W/serial.txt"
SERIAL_STEPS=$(grep -c '^[0-9a-f]* [01] ' "$W/serial/steps.log")
echo "# serial (git bisect run, this machine's QEMU): $SERIAL_STEPS judged steps, $SERIAL_S s"
check "serial: the first bad commit is c$BAD" "cat $W/serial.txt" 0 "^$(c "$BAD") is the first bad commit"

# On the lab, two commits a round.
bisect_start
t=$SECONDS
# shellcheck disable=SC2046
_run "$SECTIONS --sections 2 --tree $W/tree --results $W/sections $(lab_opts) ${JUDGE[*]} -- ${WL[*]}"
LAB_S=$((SECONDS - t))
printf '%s\n%s\n' "$OUT" "$ERR" >"$W/sections.txt"
grep -E '^(round|bisect-sections)' "$W/sections.txt" | sed 's/^/# /'
ok "--sections 2: the bisect ends (exit $RC)" [ "$RC" = 0 ]
check "--sections 2: the first bad commit is c$BAD" "cat $W/sections.txt" 0 "^$(c "$BAD") is the first bad commit"
check "... c$BROKEN, if it was tested, was skipped, not judged" \
	"git -C $W/tree bisect log | grep -F $(c "$BROKEN") || echo untested" 0 "^(git bisect skip|untested)"
check "... every commit it tested is marked in git bisect's log" \
	"grep -c '^round' $W/sections/rounds.log; git -C $W/tree bisect log | grep -cE '^git bisect (good|bad|skip) '" 0 '.'
ROUNDS=$(grep -c '^round' "$W/sections/rounds.log")
JOBS=$(grep -cE 'lab: job [0-9]+ on ' "$W/sections.txt")
echo "# lab, --sections 2: $ROUNDS rounds, $JOBS jobs, $LAB_S s (serial: $SERIAL_STEPS steps, $SERIAL_S s)"
jobs_list >"$W/jobs.txt"
check "... both devices ran its jobs" "cat $W/jobs.txt" 0 ' qemu-01$'
check "... (qemu-02 too)" "cat $W/jobs.txt" 0 ' qemu-02$'
git -C "$W/tree" bisect reset -q >/dev/null 2>&1

# Again, with a worker killed in the middle of a job.
bisect_start
rm -f "$W/killed"
kill_during_job &
killer=$!
t=$SECONDS
# shellcheck disable=SC2046
_run "$SECTIONS --sections 2 --tree $W/tree --results $W/killed-run $(lab_opts) --lab-deadline 180 ${JUDGE[*]} -- ${WL[*]}"
KILL_S=$((SECONDS - t))
wait "$killer"
printf '%s\n%s\n' "$OUT" "$ERR" >"$W/killed.txt"
grep -E '^(round|bisect-sections)|after job' "$W/killed.txt" | sed 's/^/# /'
ok "a worker was killed during a job ($(cat "$W/killed" 2>/dev/null))" test -s "$W/killed"
read -r KJOB KDEV <"$W/killed" 2>/dev/null
check "the bisect still ends on c$BAD" "cat $W/killed.txt" 0 "^$(c "$BAD") is the first bad commit"
check "the killed job is named and was submitted again" "cat $W/killed.txt" 0 \
	"lab: job [0-9]+ on qemu-0[12]: Complete, 1 result\\(s\\); after job ${KJOB:-X} on ${KDEV:-X} (ended Incomplete|not finished within 180 s)"
echo "# with a worker killed: $KILL_S s"
git -C "$W/tree" bisect reset -q >/dev/null 2>&1

# No process of the lab, its ports free.
nothing_left() {
	local p
	for p in /proc/[0-9]*; do
		[ "$(readlink "$p/root" 2>/dev/null)" = "$LABDIR/root" ] && return 1
	done
	! ss -Hltn "( sport = :$PORT or sport = :$((PORT + 1)) )" | grep -q .
}

check "lab-down" "'$ROOT/scripts/lava/lab-down.sh' --dir '$LABDIR'" 0 ''
ok "... no process of the lab is left, its ports are free" nothing_left

# A lab-up that fails half-way (PostgreSQL's configuration gone: the
# supervisor has started it, it does not come up) takes the lab down.
conf=$LABDIR/root/etc/postgresql/15/main/postgresql.conf
mv "$conf" "$conf.aside"
check "a lab-up that fails half-way: exit 1, the log's last lines" \
	"'$ROOT/scripts/lava/lab-up.sh' --dir '$LABDIR' --port $PORT" 1 'PostgreSQL did not start'
ok "... and no process of the lab is left, its ports are free" nothing_left
mv "$conf.aside" "$conf"
done_testing

#!/bin/bash
# SPDX-License-Identifier: MIT
# Progress lines besides --vm's: --repeat N shows which run and the time
# left, rewritten in place once a second while the parent waits for each
# run (its SIGALRM must not break the wait: every run is gathered); its
# runs draw nothing of their own; a single run holds one still line while
# it times the loop; the bisect driver shows each phase. All only on a
# terminal (script gives the command a pty) and never with LATCTL_PROGRESS=0.
. "$(dirname "$0")/engine.sh"

command -v script >/dev/null || skip_all "script (util-linux) is not installed"
L=$LATCTL
ESC=$'\033'
CR=$'\r'
# 4 to 8 s a run here (never under 2 s): the ticker fires while the parent waits.
RUN="$L run grow --iters 16000000 --cpu 0 --backend none"
on_tty() {	# LOG COMMAND: run it on a pty; its output (both streams) into LOG
	script -qec "$2" "$1" >/dev/null 2>&1
}

on_tty "$TMPD/rep.log" "$RUN --repeat 3 --json $TMPD/rep.json"
tr '\r' '\n' < "$TMPD/rep.log" | sed 's/\x1b\[K//g' > "$TMPD/rep.txt"
ok "--repeat on a terminal: the line names the first run" grep -q '^latctl: --repeat: run 1 of 3 \.\.\. [1-9][0-9]* s' "$TMPD/rep.txt"
ok "then each next run and the time left" grep -q '^latctl: --repeat: run 3 of 3, about [0-9]* s left \.\.\. [0-9]* s' "$TMPD/rep.txt"
ok "rewritten in place: each update starts with a carriage return and an erase" \
	grep -q "${CR}${ESC}\\[Klatctl: --repeat: run 2 of 3" "$TMPD/rep.log"
ok "the seconds advance while a run is waited for (1 s, then 2 s into a run)" \
	bash -c "grep -q '^latctl: --repeat: run [123] of 3.* \.\.\. 1 s' '$TMPD/rep.txt' &&
		grep -q '^latctl: --repeat: run [123] of 3.* \.\.\. 2 s' '$TMPD/rep.txt'"
ok "run 1's line drawn first a second into it, not at its start" bash -c "! grep -q 'run 1 of 3 \.\.\. 0 s' '$TMPD/rep.txt'"
ok "the next runs' lines at once, so that short runs show theirs too" \
	grep -q '^latctl: --repeat: run 2 of 3, about [0-9]* s left \.\.\. 0 s' "$TMPD/rep.txt"
ok "the runs draw no line of their own" bash -c "! grep -q 'timing grow' '$TMPD/rep.txt'"
ok "every run is gathered although the ticker interrupted the waits" \
	test "$(json_get "$TMPD/rep.json" repeat runs)" = 3
check "... and each has its process" "perl -MJSON::PP -e 'local \$/; my \$d = decode_json(<>);
	print scalar(grep { \$_->{pid} > 0 } @{\$d->{repeat}{per_run}}), \" runs\n\"' $TMPD/rep.json" 0 '^3 runs$'
ok "the line is erased before the report" \
	perl -e 'local $/; $_ = <>; my ($p, $e, $r) = (rindex($_, "latctl: --repeat"), rindex($_, "\r\e[K"),
		index($_, "Causes of the")); exit !($p >= 0 && $p < $e && $e < $r)' "$TMPD/rep.log"

on_tty "$TMPD/bad.log" "$L run grow --repeat 2 --cpu 1023"
ok "a run that fails at once: its line stands alone on the terminal" \
	grep -q '^latctl: --cpu 1023: cannot run there' "$TMPD/bad.log"
ok "... with no progress line before it" bash -c "! grep -q -e '--repeat: run' '$TMPD/bad.log'"
check "--repeat without a terminal" "$RUN --iters 200000 --repeat 2" 0 'Causes of the'
ok "no progress line, no carriage return, no escape" \
	bash -c "! printf '%s' \"\$1\" | grep -q -e '--repeat: run' -e $'\r' -e $'\033'" _ "$ERR"
on_tty "$TMPD/off.log" "LATCTL_PROGRESS=0 $RUN --iters 200000 --repeat 2"
ok "LATCTL_PROGRESS=0 on a terminal: none either" bash -c "! grep -q -e '--repeat: run' -e '${ESC}\\[K' '$TMPD/off.log'"

on_tty "$TMPD/one.log" "$RUN --iters 2000000"
ok "one run on a terminal: one still line while it times the loop" \
	grep -q "${CR}${ESC}\\[Klatctl: timing grow (this line holds still: nothing interrupts the loop) \\.\\.\\.${CR}${ESC}\\[K" "$TMPD/one.log"
ok "drawn once, without seconds" test "$(grep -o 'timing grow' "$TMPD/one.log" | wc -l)" = 1

# The bisect driver on a fake test bed whose phases only sleep.
F=$TMPD/fake
mkdir -p "$F/scripts/bisect" "$F/scripts/testbed" "$F/user" "$TMPD/tree"
cp "$TESTS_DIR/scripts/bisect/bisect-step.sh" "$F/scripts/bisect/"
printf 'user:\n\t@true\n' > "$F/Makefile"
for s in kernel-fetch vm-module vm-initramfs; do printf '#!/bin/sh\nsleep 1.2\n' > "$F/scripts/testbed/$s.sh"; done
cat > "$F/scripts/testbed/vm-run.sh" <<'EOF'
#!/bin/sh
while [ $# -gt 0 ]; do [ "$1" = --out-dir ] && out=$2; shift; done
sleep 2.2
echo '{}' > "$out/step.json"
EOF
printf '#!/bin/sh\necho "latctl check: good: p99.9 within the limit"\n' > "$F/user/latctl"
chmod +x "$F"/scripts/*/*.sh "$F/user/latctl"
git init -q "$TMPD/tree"
printf 'kernel=6.12\nappend=quiet\n' > "$TMPD/tree/testbed.conf"
STEP="cd $TMPD/tree && $F/scripts/bisect/bisect-step.sh --results $TMPD/res --max p99.9=1s -- grow"
on_tty "$TMPD/bis.log" "$STEP"
tr '\r' '\n' < "$TMPD/bis.log" | sed 's/\x1b\[K//g' > "$TMPD/bis.txt"
ok "bisect step on a terminal: the build phase line, with seconds" \
	grep -q '^bisect-step: unknown: building the kernel, latmon and the initramfs \.\.\. [0-9]* s' "$TMPD/bis.txt"
ok "rewritten as the seconds pass" grep -q '^bisect-step: unknown: building the kernel, latmon and the initramfs \.\.\. [1-9] s' "$TMPD/bis.txt"
ok "the boot phase line" grep -q '^bisect-step: unknown: booting and 5 runs of grow \.\.\. [0-9]* s' "$TMPD/bis.txt"
ok "each erased before the phase's own line" \
	grep -q "${CR}${ESC}\\[Kbisect-step: unknown: build: Debian 6.12" "$TMPD/bis.log"
ok "and the step still checks: good" grep -q 'bisect-step: unknown: check: latctl check: good' "$TMPD/bis.txt"
check "bisect step without a terminal: exit 0" "$STEP" 0 'check: latctl check: good'
ok "no progress line, no carriage return, no escape" \
	bash -c "! printf '%s' \"\$1\" | grep -q -e 'building the kernel' -e $'\r' -e $'\033'" _ "$ERR"
# --boots 2: two boots, each one result, judged together (check --pool)
printf '#!/bin/sh\necho "latctl check: good: $*"\n' > "$F/user/latctl"
check "bisect step --boots 2: two boots" "${STEP/--max/--boots 2 --max}" 0 \
	'boot and 5 runs of grow \(boot 2 of 2\): [0-9]+ s, result .*/step-[0-9]+-unknown-b2\.json'
ok "... judged as one side: check --pool with both results" \
	bash -c "printf '%s\n' \"\$1\" | grep -Eq 'check: latctl check: good: check --max p99.9=1s --pool \\S+-b1\\.json \\S+-b2\\.json'" _ "$ERR"
check_err "bisect step --boots 0: 125, one line" "${STEP/--max/--boots 0 --max}" 125 "--boots '0' is not valid"
done_testing

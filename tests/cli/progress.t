#!/bin/bash
# SPDX-License-Identifier: MIT
# The progress line of --vm: on a terminal one line rewritten in place
# (\r, erase) with the phase and the seconds, erased before the next output;
# when stderr is not a terminal, nothing of it. The test bed here is a fake
# whose vm-run.sh only sleeps, so no VM boots.
. "$(dirname "$0")/engine.sh"

command -v script >/dev/null || skip_all "script (util-linux) is not installed"
S=$TMPD/fake/scripts
mkdir -p "$S"
printf '#!/bin/sh\nexit 1\n' > "$S/kernel-fetch.sh"
printf '#!/bin/sh\nsleep 2.5\nexit 0\n' > "$S/vm-run.sh"
chmod +x "$S"/*.sh
RUN="LATCTL_SCRIPTS=$S $LATCTL run grow --iters 1000 --vm"

# On a terminal (script gives the command a pty and logs what it wrote).
script -qec "$RUN" "$TMPD/tty.log" >/dev/null 2>&1
tr '\r' '\n' < "$TMPD/tty.log" > "$TMPD/tty.txt"
ok "a terminal sees the phase line" grep -q 'latctl: --vm, Debian [0-9.]*: booting the VM and running there \.\.\. [0-9]* s' "$TMPD/tty.txt"
ok "the line is rewritten in place as the seconds pass (0, 1 and 2 s)" \
	bash -c "grep -c 'booting the VM and running there \.\.\. [012] s' '$TMPD/tty.txt' | grep -qv '^[012]$'"
ok "each update starts with a carriage return and an erase" grep -q $'\r\033\\[Klatctl: --vm' "$TMPD/tty.log"
ok "the line is erased before the next message" \
	grep -q $'\r\033\\[Klatctl: --vm: the guest finished but sent no result back' "$TMPD/tty.log"

# Not a terminal: stderr has the messages and no progress at all.
check "without a terminal" "$RUN" 1 'the guest finished but sent no result back'
ok "no progress line, no carriage return, no escape" \
	bash -c "! printf '%s' \"\$1\" | grep -q -e 'booting the VM' -e $'\r' -e $'\033'" _ "$ERR"
done_testing

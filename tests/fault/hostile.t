#!/bin/bash
# SPDX-License-Identifier: MIT
# A hostile local user (nobody) on a shared box cannot make root's latctl
# delete or overwrite files: a scratch symlink planted in /tmp, a journal
# planted, raced or damaged (a path, a symlink, a FIFO, another owner, a
# long line, 70 lines), a state directory under nobody's directory or
# behind a trailing slash, output paths through nobody's symlink with
# fs.protected_symlinks on, a block device; readers bounded (100,000
# keys, bytes after the document, escape sequences); two state
# directories share one lock; leftovers of killed runs removed; write
# errors exit 1. Root's view of the box is left as found (the protected_*
# sysctls, THP). About 30 s.
. "$(dirname "$0")/../cli/engine.sh"

[ "$(id -u)" = 0 ] || skip_all "needs root (the victim is root's latctl)"
id nobody >/dev/null 2>&1 || skip_all "needs user nobody"
L=$LATCTL
AS_NOBODY="setpriv --reuid=nobody --regid=nogroup --clear-groups"
F=$TMPD/thp
mkdir -p "$F/hugepages-64kB"
echo 'always [madvise] never' > "$F/enabled"
echo 'always inherit madvise [never]' > "$F/hugepages-64kB/enabled"
val() { sed 's/.*\[\(.*\)\].*/\1/' "$1"; }
export -f val
chmod 755 "$TMPD"
bash -c 'exit 0' & dead=$!
wait $dead
planted=()
core=$(cat /proc/sys/kernel/core_pattern)
# a latctl with the hole writes core_pattern: put back whatever happens
cleanup_planted() {
	rm -f "${planted[@]}" 2>/dev/null
	[ "$(cat /proc/sys/kernel/core_pattern)" = "$core" ] || echo "$core" > /proc/sys/kernel/core_pattern
}
trap 'cleanup_planted; rm -rf "$TMPD"' EXIT

# ---- 1. --repeat's stale scratch directories ----
V=$TMPD/victim
mkdir -p "$V" && touch "$V/run-parts" "$V/run-1.json"
for s in x abcdef; do
	$AS_NOBODY ln -s "$V" "/tmp/.latctl-repeat.$dead.$s" && planted+=("/tmp/.latctl-repeat.$dead.$s")
done
check "--repeat beside nobody's symlinks named as a dead run's scratch directory" \
	"env -u TMPDIR $L run grow --iters 2000 --repeat 2 --backend none -q" 0 ''
ok "... the files in the symlink's target are all there" test -e "$V/run-parts" -a -e "$V/run-1.json"
ok "... nobody's symlinks are left alone" test -L "/tmp/.latctl-repeat.$dead.abcdef"
mkdir -m 1777 "$TMPD/sticky"
$AS_NOBODY ln -s "$V" "$TMPD/sticky/.latctl-repeat.$dead.qwerty"
$AS_NOBODY mkdir "$TMPD/sticky/.latctl-repeat.$dead.nobody"
$AS_NOBODY touch "$TMPD/sticky/.latctl-repeat.$dead.nobody/run-1.json"
mkdir -m 700 "$TMPD/sticky/.latctl-repeat.$dead.rootsd"
touch "$TMPD/sticky/.latctl-repeat.$dead.rootsd/run-1.json"
check "--repeat --json into a sticky directory with planted scratch names" \
	"$L run grow --iters 2000 --repeat 2 --backend none -q --json $TMPD/sticky/out.json" 0 ''
ok "... the symlink's target untouched, nobody's directory and file kept" \
	test -e "$V/run-parts" -a -e "$TMPD/sticky/.latctl-repeat.$dead.nobody/run-1.json"
ok "... root's own scratch directory of a dead run removed" test ! -e "$TMPD/sticky/.latctl-repeat.$dead.rootsd"
cleanup_planted

# ---- 2. the journal is data, not a script ----
export LATCTL_STATE_DIR=$TMPD/st LATCTL_SYSFS_THP=$F
mkdir -m 700 "$LATCTL_STATE_DIR"
J=$LATCTL_STATE_DIR/journal
echo precious > "$TMPD/victim1.txt"
mkdir "$TMPD/keepdir"
refused() {	# what, journal text (printf format), then the claim that follows
	local what=$1 text=$2
	rm -f "$J" "$J.refused"
	printf "$text" > "$J"
	check_err "journal $what: refused in one line naming it, nothing done" "timeout 10 $L restore" 1 \
		"journal $J is refused: it .*nothing in it was put back; kept as $J.refused"
}
refused "naming a file to overwrite" 'run 1 x\nset\t%s\troot::0:0:\n' "$TMPD/victim1.txt"
ok "... the file is as it was, the journal kept for a person" \
	test "$(cat "$TMPD/victim1.txt")" = precious -a -e "$J.refused" -a ! -e "$J"
refused "removing a directory" "run 1 x\nrmdir\t$TMPD/keepdir\n"
ok "... the directory stays" test -d "$TMPD/keepdir"
refused "with a relative path and .." "run 1 x\nset\t../../../../../..$TMPD/rel\tv\n"
refused "writing core_pattern" 'run 1 x\nset\t/proc/sys/kernel/core_pattern\t|/tmp/x\n'
ok "... core_pattern is not |/tmp/x" bash -c "! grep -q '^|/tmp/x' /proc/sys/kernel/core_pattern"
refused "with a value that is no word" 'run 1 x\nsysfs\tfake\nset\tthp\talways never\n'
refused "with a line over 4 KiB" "run 1 x\nsysfs\tfake\nset\tthp\t$(head -c 5000 /dev/zero | tr '\0' a)\n"
ok "... the fake THP untouched" test "$(val "$F/enabled")" = madvise
refused "of 70 lines" "run 1 x\nsysfs\tfake\n$(for _ in $(seq 70); do printf 'set\\tthp\\tnever\\n'; done)"
ok "... all 70 kept for a person, none run" bash -c "test \$(grep -c never $J.refused) = 70 && test \"\$(val $F/enabled)\" = madvise"
rm -f "$J" "$J.refused"
printf 'run 1 x\nsysfs\tfake\nset\tthp\tnever\n' > "$J"
chown nobody "$J" && chmod 666 "$J"
check_err "a journal owned by nobody, mode 0666: refused" "$L restore" 1 'not a regular file of latctl.s own'
ok "... THP not set from it" test "$(val "$F/enabled")" = madvise
rm -f "$J" "$J.refused"
printf 'run 1 x\nsysfs\tfake\nset\tthp\tnever\n' > "$TMPD/elsewhere"
ln -s "$TMPD/elsewhere" "$J"
check_err "a journal that is a symlink: refused, not followed" "$L restore" 1 'journal is refused: it is a symlink'
rm -f "$J" "$J.refused"
mkfifo "$J"
check_err "a journal that is a FIFO: refused at once, no hang" "timeout 10 $L restore" 1 \
	'not a regular file of latctl.s own'
rm -f "$J" "$J.refused"
ln -s /dev/zero "$J"
check_err "a journal linked to /dev/zero: refused at once" "timeout 10 $L restore" 1 'it is a symlink'
check "... doctor shows a refused journal and does not hang" "timeout 10 $L doctor" 0 'settings +.*refused'
rm -f "$J" "$J.refused"
mkdir "$LATCTL_STATE_DIR/lock.d" && printf 'run 1 x\nsysfs\tfake\nset\tthp\tnever\n' > "$J"
rm -f "$LATCTL_STATE_DIR/lock" && ln -s /etc/passwd "$LATCTL_STATE_DIR/lock"
check_err "a lock that is a symlink: restore says so, exit 1" "$L restore" 1 'lock .* is not a regular file'
rm -f "$LATCTL_STATE_DIR/lock" "$J"
rmdir "$LATCTL_STATE_DIR/lock.d"

# ---- 3. the state directory ----
mkdir "$TMPD/nob" && chown nobody "$TMPD/nob"
check_err "a state directory under nobody's directory: refused, THP not changed" \
	"LATCTL_STATE_DIR=$TMPD/nob/state $L run grow --thp always --iters 1000 --backend none -q" 1 \
	"$TMPD/nob/state is not latctl's state directory"
ok "... the fake THP is madvise" test "$(val "$F/enabled")" = madvise
ln -s "$LATCTL_STATE_DIR" "$TMPD/stlink"
check_err "a state directory behind a symlink with a trailing slash: refused" \
	"LATCTL_STATE_DIR=$TMPD/stlink/ $L run grow --thp always --iters 1000 --backend none -q" 1 \
	"is not latctl's state directory"
check_err "a relative state directory: refused" \
	"LATCTL_STATE_DIR=st $L run grow --thp always --iters 1000 --backend none -q" 1 \
	"st is not latctl's state directory"
# RENAME_EXCHANGE of nobody's two directories under nobody's parent: the
# walk refuses nobody's parent whatever is swapped in
$AS_NOBODY mkdir "$TMPD/nob/a" "$TMPD/nob/b"
check_err "a state directory whose parent nobody can swap" \
	"LATCTL_STATE_DIR=$TMPD/nob/a $L restore" 1 "is not latctl's state directory"
unset LATCTL_STATE_DIR LATCTL_SYSFS_THP

# ---- 4. output paths ----
old_sym=$(sysctl -n fs.protected_symlinks) old_reg=$(sysctl -n fs.protected_regular)
trap 'sysctl -qw fs.protected_symlinks=$old_sym fs.protected_regular=$old_reg; cleanup_planted; rm -rf "$TMPD"' EXIT
sysctl -qw fs.protected_symlinks=1 fs.protected_regular=1
R=$TMPD/r.json
$L run grow --iters 2000 --backend none -q --json "$R"
$L run grow --iters 2000 --backend none -q --json "$TMPD/r2.json"
echo ROOT > "$TMPD/rootfile"
$AS_NOBODY ln -s "$TMPD/rootfile" "$TMPD/sticky/link.json"
for c in "run grow --iters 1000 --backend none -q --json" "plot $R -o" "compare $R $TMPD/r2.json --json"; do
	check "$c through nobody's symlink in a sticky directory (protected_symlinks=1): refused" \
		"$L $c $TMPD/sticky/link.json >/dev/null" 2 'Permission denied'
	ok "... root's file is as it was" test "$(cat "$TMPD/rootfile")" = ROOT
done
$AS_NOBODY sh -c "echo NOBODY > $TMPD/sticky/theirs.json"
check "--json over nobody's file in a sticky directory (protected_regular=1): refused" \
	"$L run grow --iters 1000 --backend none -q --json $TMPD/sticky/theirs.json" 2 'Permission denied'
ok "... nobody's file is as it was" test "$(cat "$TMPD/sticky/theirs.json")" = NOBODY
mknod "$TMPD/blk" b 7 0
ln -s "$TMPD/blk" "$TMPD/blk.svg"
check_err "plot -o a block device: refused" "$L plot $R -o $TMPD/blk" 2 'is a block device'
check_err "plot -o a symlink to a block device: refused" "$L plot $R -o $TMPD/blk.svg" 2 'is a block device'
cp "$R" "$TMPD/x.json"
check "run --json x.json with stdout closed: exit 0" \
	"$L run grow --iters 2000 --backend none --json $TMPD/x.json >&-" 0 ''
ok "... x.json is a valid result, no report in it" \
	perl -MJSON::PP -e 'local $/; decode_json(<>)' "$TMPD/x.json"

# ---- 5. readers ----
perl -MJSON::PP -e 'local $/; my $d = decode_json(<>); $d->{pad} = { map { ("k$_", 0) } 1..100000 };
	print encode_json($d)' "$R" > "$TMPD/keys.json"
check "report of a result with an object of 100,000 keys: within 10 s" \
	"timeout 10 $L report $TMPD/keys.json > /dev/null; echo rc=\$?" 0 '^rc=0$'
{ cat "$R"; echo '{"more": 1}'; } > "$TMPD/trail.json"
check_err "bytes after the document: refused" "$L report $TMPD/trail.json" 2 'more after its JSON document'
perl -pe 's/"command_line":\s*"/"command_line": "\\u001b[2J\\u001b]0;owned\\u0007/' "$R" > "$TMPD/esc.json"
check "report of a command line with escape sequences: shown escaped" \
	"$L report $TMPD/esc.json | grep -c \$'\\e'" 1 '^0$'

# ---- 6. two state directories, one lock (the real THP) ----
T=/sys/kernel/mm/transparent_hugepage/enabled
if [ -w $T ]; then
	before=$(val $T)
	LATCTL_STATE_DIR=$TMPD/sA $L run grow --thp always --iters 40000000 --backend none -q & a=$!
	for _ in $(seq 200); do [ "$(val $T)" = always ] && break; sleep 0.05; done
	# the second waits; once it says so, a Ctrl-C ends the first (however
	# long this machine takes for 40 M pushes), and the second goes on
	LATCTL_STATE_DIR=$TMPD/sB timeout 600 $L run grow --thp never --iters 1000 --backend none -q \
		2>"$TMPD/sB.err" & b=$!
	for _ in $(seq 1200); do grep -q 'waiting for another latctl run' "$TMPD/sB.err" && break; sleep 0.05; done
	kill -INT $a
	wait $b; rc=$?
	check "a second run with another state directory waited for the first, then ran (exit $rc)" \
		"cat $TMPD/sB.err; exit $rc" 0 "waiting for another latctl run \(pid $a "
	wait $a
	ok "... THP as before both ($before)" test "$(val $T)" = "$before"
else
	echo "ok $((_n + 1)) # skip two state directories: $T is not writable here"
	echo "ok $((_n + 2)) # skip ... THP as before"
	_n=$((_n + 2))
fi

# ---- 7. leftovers and exit codes ----
mkdir -m 700 "$TMPD/tmpdir"
TMPDIR=$TMPD/tmpdir $L run grow --iters 40000000 --repeat 3 --backend none -q & r=$!
for _ in $(seq 100); do compgen -G "$TMPD/tmpdir/.latctl-repeat.*" >/dev/null && break; sleep 0.05; done
kill -9 $r; wait $r 2>/dev/null
sleep 0.5
touch "$TMPD/.x.json.latctl-$dead.AbCdEf"
check "after kill -9 of --repeat, latctl restore removes its scratch directory and a dead temporary" \
	"cd $TMPD && TMPDIR=$TMPD/tmpdir $L restore" 0 'removed [2-9] temporary files'
ok "... none left" test -z "$(find $TMPD/tmpdir $TMPD -maxdepth 1 -name '.*latctl-*')"
for sig in USR1 QUIT; do
	TMPDIR=$TMPD/tmpdir $L run grow --iters 40000000 --repeat 3 --backend none -q --json "$TMPD/sig.json" 2>/dev/null & r=$!
	for _ in $(seq 100); do compgen -G "$TMPD/.latctl-repeat.*" >/dev/null && break; sleep 0.05; done
	sleep 0.3
	kill -$sig $r; wait $r 2>/dev/null
	ok "SIG$sig to --repeat --json: no scratch directory or temporary file left" \
		test -z "$(find "$TMPD" "$TMPD/tmpdir" -maxdepth 1 -name '.*latctl-*')"
done
check_err "plot -o /dev/full: exit 1, one line" "$L plot $R -o /dev/full" 1 'writing /dev/full failed'
check_err "compare --json /dev/full: exit 1, one line" "$L compare $R $TMPD/r2.json --json /dev/full >/dev/null" 1 \
	'writing /dev/full failed'
check_err "--help to /dev/full: exit 1, one line" "$L --help > /dev/full" 1 'writing to stdout failed'
check_err "--version to /dev/full: exit 1, one line" "$L --version > /dev/full" 1 'writing to stdout failed'
check_err "run with stdout on /dev/full: exit 1, one line" \
	"$L run grow --iters 1000 --backend none > /dev/full" 1 'writing the report to stdout failed: No space'
done_testing

# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# The boots of scripts/bisect/bisect-step.sh --lab: each one a LAVA job on
# the lab (scripts/lava/lab-client.py), the step's boots at once. Sourced
# by bisect-step.sh; uses its LAB* options, WORK, LOG, COMMIT, SERIES,
# VMLINUZ, APPEND, WORKLOAD, REPEAT, TIMEOUT and its skip/say/keep_step.

CLIENT=$ROOT/scripts/lava/lab-client.py
DEVICES=() LAB_JOBS=""

# Stop git bisect run: one line, 128.
lab_stop() {
	echo "bisect-step: $*; stopping git bisect run" >&2
	exit 128
}

# Before anything is built: the options, then the lab answers with the
# token and has the device type (lab-client.py check).
lab_check() {
	local line a
	[ -n "$LAB_SHARE" ] || lab_stop "--lab needs --lab-share DIR, where the lab's workers fetch the kernel and the ramdisk"
	lab_share_safe "$LAB_SHARE"
	case $LAB_RETRIES in '' | *[!0-9]*) lab_stop "--lab-retries '$LAB_RETRIES' is not a whole number" ;; esac
	: "${LAB_DEADLINE:=$((TIMEOUT + 600))}"
	case $LAB_DEADLINE in '' | 0 | *[!0-9]*) lab_stop "--lab-deadline '$LAB_DEADLINE' is not a whole number of seconds" ;; esac
	for a in "${WORKLOAD[@]}"; do
		[[ $a =~ ^[A-Za-z0-9._:=/,+%@-]+$ ]] ||
			lab_stop "'$a' cannot go into a lab job's command: use letters, digits and ._:=/,+%@-"
	done
	line=$(python3 "$CLIENT" check --url "$LAB" --device-type "$LAB_TYPE" 2>&1) ||
		lab_stop "${line#lab-client: }"
	echo "bisect-step: $line" >&2
}

# Copy $1 into the share as NAME $2 under its hash (once: a file of that
# name with another content is replaced); print its URL.
lab_put() {
	local h f tmp
	h=$(sha256sum "$1" | cut -d' ' -f1) || return 1
	f=latctl-${h:0:16}-$2
	if [ -L "$LAB_SHARE/$f" ] || [ ! -f "$LAB_SHARE/$f" ] ||
		[ "$(sha256sum "$LAB_SHARE/$f" | cut -d' ' -f1)" != "$h" ]; then
		tmp=$(mktemp "$LAB_SHARE/.latctl.XXXXXX") || return 1
		cp "$1" "$tmp" && chmod 0644 "$tmp" && mv -f "$tmp" "$LAB_SHARE/$f" ||
			{ rm -f "$tmp"; return 1; }
	fi
	echo "${LAB_URL:-file://$(cd "$LAB_SHARE" && pwd -P)}/$f"
}

# The share is a directory no other user can write: a kernel put there
# is the one the lab boots.
lab_share_safe() {
	local d=$1
	[ -e "$d" ] || return 0
	[ -d "$d" ] && [ ! -L "$d" ] || lab_stop "--lab-share $d is not a directory"
	[ "$(stat -c %u "$d")" = "$(id -u)" ] || [ "$(stat -c %u "$d")" = 0 ] ||
		lab_stop "--lab-share $d belongs to another user: give a directory of yours"
	[ -z "$(find "$d" -maxdepth 0 -perm /022)" ] ||
		lab_stop "--lab-share $d is writable by other users, who could put their kernel there: give a directory only you can write"
}

# The step's kernel and ramdisk where the workers fetch them.
lab_publish() {
	local k=$VMLINUZ
	[[ $APPEND =~ ^[A-Za-z0-9._:=/,+%@\ -]*$ ]] ||
		skip "build failed: the command line '$APPEND' cannot go into a lab job"
	[ -n "$k" ] || k=$("$ROOT/scripts/testbed/kernel-fetch.sh" --env "$SERIES" | sed -n 's/^VMLINUZ=//p')
	mkdir -p "$LAB_SHARE" || skip "cannot make --lab-share $LAB_SHARE"
	LAB_KERNEL=$(lab_put "$k" vmlinuz) && LAB_RAMDISK=$(lab_put "$WORK/initramfs.cpio.gz" ramdisk.cpio.gz) ||
		skip "cannot write the kernel and the ramdisk to --lab-share $LAB_SHARE"
}

# Boot $1 as a job: its definition, then lab-client.py boot (retries and
# deadline there); its exit code in WORK/lab-N.rc.
lab_job() {
	local b=$1 j=$WORK/job-$1.yaml rc=0
	sed -e "s|@DEVICE_TYPE@|$LAB_TYPE|" -e "s|@COMMIT@|$COMMIT|" -e "s|@BOOT@|$b|" \
		-e "s|@JOB_MINUTES@|$((TIMEOUT / 60 + 15))|g" -e "s|@RUN_MINUTES@|$((TIMEOUT / 60 + 1))|" \
		-e "s|@APPEND@|$APPEND|" -e "s|@KERNEL_URL@|$LAB_KERNEL|" -e "s|@RAMDISK_URL@|$LAB_RAMDISK|" \
		-e "s|@WORKLOAD@|${WORKLOAD[*]} --repeat $REPEAT|" "$ROOT/scripts/lava/lab-job.yaml" >"$j"
	python3 "$CLIENT" boot --url "$LAB" --job "$j" --out "$WORK/lab-$b" --retries "$LAB_RETRIES" \
		--deadline "$LAB_DEADLINE" --poll "${LATCTL_LAB_POLL:-5}" \
		>"$WORK/lab-$b.out" 2>"$WORK/lab-$b.err" || rc=$?
	echo "$rc" >"$WORK/lab-$b.rc"
}

# The result of boot $1's job, its device written into it, as the step's.
lab_collect() {
	local b=$1 rc job dev why
	rc=$(cat "$WORK/lab-$b.rc")
	cat "$WORK/lab-$b.out" "$WORK/lab-$b.err" >>"$LOG"
	why=$(tail -n1 "$WORK/lab-$b.err" | sed 's/^lab-client: //')
	case $rc in
	0) ;;
	128) lab_stop "boot $b: $why" ;;
	*) skip "lab: boot $b: $why" ;;
	esac
	read -r job dev < <(python3 - "$WORK/lab-$b/job.json" "$WORK/step.json" <<-'EOF'
	import json, os, sys
	j = json.load(open(sys.argv[1]))
	d = json.load(open(j["results"][0]))
	d.setdefault("environment", {})["device"] = j["device"]
	with open(sys.argv[2] + ".tmp", "w") as f:
	    json.dump(d, f, indent=1)
	os.rename(sys.argv[2] + ".tmp", sys.argv[2])
	print(j["job"], j["device"])
	EOF
	) || skip "lab: boot $b: $(cat "$WORK/lab-$b.out"), but no result latctl wrote"
	LAB_JOBS="$LAB_JOBS $job"
	DEVICES+=("$dev")
	keep_step "$b"
	say "$(cat "$WORK/lab-$b.out"); result $STEP"
}

# Boots $@ as jobs at once, then their results in order.
lab_boots() {
	local b start=$SECONDS pids=()
	progress "$# lab job(s) of $REPEAT runs of ${WORKLOAD[*]} on $LAB"
	for b in "$@"; do
		lab_job "$b" &
		pids+=($!)
	done
	wait "${pids[@]}"
	progress_end
	for b in "$@"; do
		lab_collect "$b"
	done
	BOOT_S=$((${BOOT_S:-0} + SECONDS - start))
}

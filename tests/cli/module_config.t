#!/bin/bash
# SPDX-License-Identifier: MIT
# latmon builds against a kernel configured without the function tracer
# (tinyconfig's, a kernel developer's): alloc-zero, whose begin hooks are
# ftrace filters, is built unavailable with its reason and every other
# source is built. Against Debian 6.12's headers with CONFIG_FUNCTION_TRACER,
# CONFIG_DYNAMIC_FTRACE and what depends on them configured off
# (scripts/testbed/kdir-without.sh), and as configured.
. "$(dirname "$0")/engine.sh"

R=$TESTS_DIR
env=${LATMON_KERNEL_CACHE:-$R/.cache/kernels}/6.12/kernel.env
[ -r "$env" ] || skip_all "no Debian 6.12 headers in the test bed's cache (make vm-initramfs fetches them)"
KDIR=$(sed -n 's/^KDIR=//p' "$env")
[ -d "$KDIR" ] || skip_all "$KDIR is missing"
OFF="FUNCTION_TRACER DYNAMIC_FTRACE DYNAMIC_FTRACE_WITH_REGS DYNAMIC_FTRACE_WITH_ARGS"
OFF="$OFF DYNAMIC_FTRACE_WITH_DIRECT_CALLS FUNCTION_GRAPH_TRACER KPROBES_ON_FTRACE"
OFF="$OFF FTRACE_MCOUNT_RECORD FTRACE_MCOUNT_USE_CC"

# The module's sources in their own tree, so the checkout's objects stay.
S=$TMPD/src
mkdir -p "$S"
cp -r "$R/Kbuild" "$R/module" "$R/include" "$S/"
find "$S" \( -name '*.o' -o -name '*.ko' -o -name '*.mod*' -o -name '.*.cmd' \) -delete

# shellcheck disable=SC2086 # one word per option
check "a 6.12 header tree without the function tracer" \
	"'$R/scripts/testbed/kdir-without.sh' '$KDIR' '$TMPD/kf' $OFF" 0 'linux-headers-'
NOFT=$OUT
ok "... configured without CONFIG_DYNAMIC_FTRACE" bash -c "test -f '$NOFT/include/generated/autoconf.h' && ! grep -q '^#define CONFIG_DYNAMIC_FTRACE 1$' '$NOFT/include/generated/autoconf.h'"
check "latmon builds there without a warning" \
	"make -s -C '$NOFT' M='$S' modules 2>&1 | grep -Ei 'warning|error' | grep -v 'pahole version' ; test -f '$S/module/latmon.ko'" 0 '^$'
ok "... alloc-zero built as unavailable, no ftrace plumbing" \
	bash -c "test -f '$S/module/sources/src_zero_none.o' && test ! -e '$S/module/ftr.o' && test ! -e '$S/module/sources/src_zero.o'"
check "... with its reason in the module" "strings '$S/module/latmon.ko'" 0 \
	'this kernel has no CONFIG_DYNAMIC_FTRACE: %s.s entry cannot be hooked'
for src in fault thp-clear sched irq compaction reclaim syscall wait; do
	ok "... and the $src source built" bash -c "strings -n 3 '$S/module/latmon.ko' | grep -qx '$src'"
done
make -s -C "$NOFT" M="$S" clean >/dev/null 2>&1
check "as Debian configures it, latmon builds with alloc-zero's hooks" \
	"make -s -C '$KDIR' M='$S' modules 2>&1 | grep -Ei 'warning|error' | grep -v 'pahole version'; test -f '$S/module/ftr.o' && test -f '$S/module/sources/src_zero.o'" 0 '^$'
done_testing

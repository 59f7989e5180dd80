#!/bin/bash
# SPDX-License-Identifier: MIT
# latctl builds where the BPF tool chain is missing: a copy of the tree
# built with clang and bpftool hidden from PATH and libbpf hidden from
# pkg-config. The build says once why the BPF backend is left out; the
# binary has no libbpf in it, says "not built in" where the backend would
# be named (backends, --backend bpf, doctor) and runs without it. The same
# copy built again with the tools in place has the backend again.
. "$(dirname "$0")/engine.sh"

S=$TMPD/src
mkdir -p "$S/tests" "$TMPD/bin"
cp -r "$TESTS_DIR"/{Makefile,Kbuild,include,module,user,scripts} "$S"
cp -r "$TESTS_DIR"/tests/{tests.mk,fuzz} "$S/tests"
find "$S" \( -name '*.o' -o -name '*.o.d' -o -name 'latbpf.skel.h' -o -name vmlinux.h \
	-o -name bpf-build.stamp -o -name latctl -o -name 'liblatctl.*' \) -type f -delete
# PATH without clang, LLVM or bpftool; pkg-config without libbpf
for f in /usr/local/bin/* /usr/bin/* /usr/sbin/* /bin/* /sbin/*; do
	case ${f##*/} in clang* | llc* | llvm* | bpftool* | pkg-config) continue ;; esac
	[ -e "$TMPD/bin/${f##*/}" ] || ln -s "$f" "$TMPD/bin/${f##*/}"
done
cat > "$TMPD/bin/pkg-config" <<EOT
#!/bin/sh
case " \$* " in *" libbpf "*) exit 1 ;; esac
exec $(command -v pkg-config) "\$@"
EOT
chmod +x "$TMPD/bin/pkg-config"
B="env PATH=$TMPD/bin make -C $S -j2 CFLAGS='-O0 -g' BPFTOOL=bpftool user/latctl"
L=$S/user/latctl

check "make without clang, bpftool or libbpf builds latctl and says why once" \
	"$B 2>&1 | grep -c '^latctl: built without the BPF backend: no clang, no bpftool, no libbpf'" \
	0 '^1$'
ok "... no object includes a libbpf header" bash -c "! grep -l 'bpf/libbpf.h' $S/user/*/*.o.d $S/user/*/*/*.o.d"
ok "... and latctl does not link libbpf" bash -c "! ldd $L | grep -q libbpf"
check "a second make relinks nothing and says nothing" "$B 2>&1" 0 \
	"(Nothing to be done|is up to date)"
ok "... (the reason was not said again)" bash -c "! printf '%s' \"\$0\" | grep -q 'built without'" "$OUT"
check "latctl backends: bpf not built in, and why" "$L backends; true" 0 \
	'bpf: no \(not built in \(this latctl was built without it: no clang, no bpftool'
check_err "--backend bpf: one line naming the build" "$L run grow --iters 1000 --backend bpf" 1 \
	'--backend bpf cannot record here \(not built in .*no clang'
check "latctl doctor: the bpf finding says not built in" "$L doctor; true" 0 \
	'^note +bpf +not built in \(this latctl was built without it: no clang'
ok "... and how to build it" grep -q '^ *make builds it where clang, bpftool, libbpf' <<<"$OUT"
check "a run without it: the report says why no backend recorded" \
	"$L run grow --iters 20000 --thp never 2>&1" 0 'BPF backend not allowed: not built in'
ok "... and times the pushes" grep -q '^histogram of pushes in ns' <<<"$OUT"
check "with the tools back, make builds the backend in" "make -C $S -j2 CFLAGS='-O0 -g' user/latctl 2>&1" 0 \
	'latbpf\.bpf\.o'
check "... and latctl has it" "$L backends; true" 0 'bpf: (yes|no \((it needs|no kernel|no BPF|a tp_btf))'
done_testing

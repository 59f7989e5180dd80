#!/bin/sh
# SPDX-License-Identifier: MIT
# What the BPF backend's build is missing here, one phrase, or nothing when
# it can be built (user/backend/bpf/bpf.mk asks):
#
#   scripts/dev/bpf-toolchain.sh CLANG BPFTOOL VMLINUX_BTF PKG_CONFIG
clang=$1 bpftool=$2 btf=$3 pkgconfig=$4
missing=
add() { missing="${missing:+$missing, }$1"; }
if ! command -v "$clang" >/dev/null 2>&1; then
	add "no $clang"
elif ! "$clang" -print-targets 2>/dev/null | grep -q '^ *bpf '; then
	add "$clang does not target BPF"
fi
command -v "$bpftool" >/dev/null 2>&1 || add "no $bpftool"
"$pkgconfig" --exists libbpf 2>/dev/null || add "no libbpf (pkg-config libbpf)"
[ -r "$btf" ] || [ -r user/backend/bpf/vmlinux.h ] || add "no kernel BTF at $btf (VMLINUX_BTF=FILE)"
[ -z "$missing" ] || echo "$missing; make deps installs them on Debian"

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Two marker calls around each iteration of a Python loop, through ctypes.

    latctl run exec -- python3 loop.py [PAGES]

Each iteration writes the first byte of a fresh 4 KiB page of an anonymous
mapping: a page fault, as in loop.c. LATCTL_LIB names the library when it
is not installed (the test suite points it at the build tree).
"""
import ctypes
import ctypes.util
import mmap
import os
import sys

lib = ctypes.CDLL(os.environ.get("LATCTL_LIB") or ctypes.util.find_library("latctl")
                  or "liblatctl.so.1")
begin, end = lib.latctl_begin, lib.latctl_end
begin.restype = end.restype = None

pages = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
buf = mmap.mmap(-1, pages * 4096)
if hasattr(buf, "madvise") and hasattr(mmap, "MADV_NOHUGEPAGE"):
    buf.madvise(mmap.MADV_NOHUGEPAGE)
for i in range(pages):
    begin()
    buf[i * 4096] = 1          # the first touch: a page fault
    end()
print(f"touched {pages} pages; under latctl: {bool(lib.latctl_active())}")

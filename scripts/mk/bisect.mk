# SPDX-License-Identifier: MIT
# make check-bisect: a real Linux tree bisected end to end
# (scripts/bisect/check-bisect.sh; Debian's linux-source 6.12 with a planted
# regression, a build break and a fix; the README's recipe BISECT_ROUNDS
# times, default 3). Not in make check: a cold build
# takes most of an hour. BISECT_WORK= keeps the tree and the build
# directory (default build/bisect: a second run is warm).
BISECT_WORK ?= $(CURDIR)/build/bisect

.PHONY: check-bisect
check-bisect: vm-progs user ## bisect a real Linux tree end to end (about an hour)
	scripts/deps.sh kernel
	prove --exec '' --timer -v scripts/bisect/check-bisect.sh :: $(BISECT_WORK)

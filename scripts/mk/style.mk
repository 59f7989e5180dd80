# SPDX-License-Identifier: MIT
# make style: shellcheck on the scripts, checkpatch --strict on module/,
# .clang-format on the lines of user/ a change touches
# (scripts/dev/style.sh; a missing tool skips with its reason). make check
# runs the same checks as tests/cli/style.t.
.PHONY: style
style: ## shellcheck, checkpatch on module/, clang-format on changed lines
	@scripts/dev/style.sh; rc=$$?; [ $$rc = 77 ] && rc=0; exit $$rc

#!/bin/bash
# SPDX-License-Identifier: MIT
# tests-registered.sh: every shell test in tests/shell is named in a
# SHELL_TESTS list of the build (tests/local.mk, or a backend's
# local.mk), so that none is written and then never run.  lib.sh is the
# tests' shared helper, not a test.
set -u
: "${top_srcdir:?top_srcdir must be set}"
missing=0
for t in "$top_srcdir"/tests/shell/*.sh; do
	name=tests/shell/${t##*/}
	[ "$name" = tests/shell/lib.sh ] && continue
	if ! grep -qF "$name" "$top_srcdir/tests/local.mk" \
	    "$top_srcdir"/os/*/local.mk "$top_srcdir/Makefile.am"; then
		echo "not in any SHELL_TESTS list: $name"
		missing=1
	fi
done
[ $missing -eq 0 ] && echo "every shell test is registered"
exit $missing

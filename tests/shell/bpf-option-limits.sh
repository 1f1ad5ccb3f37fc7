#!/bin/bash
# SPDX-License-Identifier: MIT
# bpf-option-limits.sh: an option past what the BPF engine can lay out
# is refused with one line naming that option: -x nspec=10000 is about
# nspec, not strsize (the speculation table is what no longer fits).
# @requires: feature:atomic_fetch (speculations in BPF)
set -u

[ "$(id -u)" -eq 0 ] || { echo "needs root to load BPF programs"; exit 77; }

out=$("$DTRACE" -x engine=bpf -x nspec=10000 -q -n 'BEGIN { exit(0); }' 2>&1)
rc=$?
want="dtrace: could not enable tracing: nspec 10000 is too large for the bpf engine (at most 64)"
if [ $rc -ne 1 ] || [ "$out" != "$want" ]; then
	echo "FAIL: nspec=10000: exit $rc: $out"
	exit 1
fi
# Within the limit it runs.
out=$("$DTRACE" -x engine=bpf -x nspec=64 -q -n 'BEGIN { s = speculation(); speculate(s); trace(7); } BEGIN { commit(s); } BEGIN { exit(0); }' 2>&1)
if [ "$(echo $out)" != 7 ]; then
	echo "FAIL: nspec=64: $out"
	exit 1
fi
exit 0

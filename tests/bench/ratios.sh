#!/bin/bash
# SPDX-License-Identifier: MIT
#
# ratios.sh: every benchmark of tests/bench against its peer, in one run
# on one machine, and all their ratios in one table at the end.  It
# measures; it passes or fails nothing.
#
# Each script runs in turn with its output in OUT/NAME.log (OUT: a new
# temporary directory, kept, or $OUT); the table lists every line of them
# that gives a ratio ("ratio ..." or "dtrace/PEER per ...": dtrace's
# figure over the peer's unless it says otherwise, below 1 dtrace is
# cheaper).  The scripts say what
# they run and need (README.md); those needing a peer that is not
# installed say so and leave its ratios out.
#
# Run as root, from anywhere:
#
#   tests/bench/ratios.sh [path/to/dtrace]
#
# Environment: BENCHES (default "bpf-vs-bpftrace agg-keys startup
# stacks pid-vs-bpftrace ptrace-vs-ltrace"), RUNS (default 3, passed on),
# OUT; the scripts' own variables pass through (N, SIZES, NP, ...).  It
# takes some ten minutes, mostly bpftrace detaching tracepoints and
# agg-keys's million keys (SIZES="10000 100000" for less).

set -u

here=$(cd "$(dirname "$0")" && pwd)
BENCHES=${BENCHES:-bpf-vs-bpftrace agg-keys startup stacks pid-vs-bpftrace ptrace-vs-ltrace}
export RUNS=${RUNS:-3}
OUT=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/ratios.XXXXXX")}
mkdir -p "$OUT" || exit 2

echo "ratios: $(uname -r), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg), RUNS=$RUNS"
echo "logs in $OUT"
for b in $BENCHES; do
	[ -x "$here/$b.sh" ] || { echo "no $b.sh"; continue; }
	t0=$(date +%s)
	"$here/$b.sh" "$@" >"$OUT/$b.log" 2>&1
	echo "$b: status $?, $(($(date +%s) - t0)) s"
done

echo
echo "== every ratio (dtrace / peer unless said; < 1: dtrace cheaper)"
for b in $BENCHES; do
	[ -f "$OUT/$b.log" ] || continue
	grep -iE 'ratio [a-z]|dtrace/[a-z]+ per |site per firing' "$OUT/$b.log" |
	    sed -e 's/^ *//' -e "s/^/  $(printf '%-18s' "$b")/"
done

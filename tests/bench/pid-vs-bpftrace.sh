#!/bin/bash
# SPDX-License-Identifier: MIT
#
# pid-vs-bpftrace.sh: the per-firing cost of a pid probe on the BPF engine
# (a uprobe running our program) against bpftrace's uprobe on the same
# function, in the same run.  It measures; it passes or fails nothing.
#
# The workload is tests/shell/data/ptrace-target.c "loop N": N calls of
# bench_fn.  Each tracer runs it with N calls and with none; the cost per
# firing is (wall(N) - wall(0)) / N, so start-up and attaching cancel out,
# median of RUNS runs:
#
#   dtrace    -c './t loop N' -n 'pid$target::bench_fn:entry { @ = count(); }'
#   bpftrace  -c './t loop N' -e 'uprobe:./t:bench_fn { @ = count(); }'
#
# and the same for a USDT probe (usdt_loop.c, N passes over <sys/sdt.h>'s
# DTRACE_PROBE1(bench, tick, i); needs systemtap-sdt-dev):
#
#   dtrace    -c './u N' -n 'bench$target:::tick { @ = count(); }'
#   bpftrace  -c './u N' -e 'usdt:./u:bench:tick { @ = count(); }'
#
# Each tracer's count is checked against N (OK / MISMATCH).  Run as root:
#
#   tests/bench/pid-vs-bpftrace.sh [path/to/dtrace]
#
# The default dtrace is build/cmd/dtrace of this repository (build without
# --enable-sanitizers to measure).  Environment: N (default 200000), RUNS
# (default 3), CC, BPFTRACE.  It installs nothing: apt-get install bpftrace.

set -u

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
DTRACE=${1:-$repo/build/cmd/dtrace}
N=${N:-200000}
RUNS=${RUNS:-3}
CC=${CC:-cc}
BPFTRACE=${BPFTRACE:-bpftrace}

die() { echo "pid-vs-bpftrace: $*" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || die "run as root (both tools load BPF programs)"
[ -x "$DTRACE" ] || die "no dtrace at $DTRACE (pass its path as \$1)"
command -v "$CC" >/dev/null || die "missing: a C compiler ($CC)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$CC" -O1 -fno-inline -pthread -o "$tmp/t" \
    "$repo/tests/shell/data/ptrace-target.c" || die "cannot compile"
cd "$tmp" || exit 2

. "$here/cost.sh"

bcount() { awk '$1 == "@:" { print $2 }'; }

echo "workload: $N calls of bench_fn, median of $RUNS runs"
base=$(median $(for ((i = 0; i < RUNS; i++)); do wall ./t loop "$N"; done))
echo "untraced   $((base / 1000000)) ms for the whole run"
cost dtrace dcount "$DTRACE" -q -c "./t loop @N@" \
    -n 'pid$target::bench_fn:entry { @ = count(); }'
if command -v "$BPFTRACE" >/dev/null; then
	cost bpftrace bcount "$BPFTRACE" -c "./t loop @N@" \
	    -e "uprobe:$tmp/t:bench_fn { @ = count(); }"
	awk -v d="$cost_dtrace" -v b="$cost_bpftrace" 'BEGIN {
	    if (b > 0) printf("dtrace/bpftrace per firing: %.2f\n", d / b) }'
else
	echo "bpftrace: not installed (apt-get install bpftrace)"
fi

# USDT: the same measure on a <sys/sdt.h> probe.
if ! "$CC" -O2 -o "$tmp/u" "$here/usdt_loop.c" 2>/dev/null; then
	echo "usdt: cannot compile usdt_loop.c (apt-get install" \
	    "systemtap-sdt-dev)"
	exit 0
fi
echo "workload: $N passes over the USDT probe bench:tick"
cost usdt_dtrace dcount "$DTRACE" -q -c "./u @N@" \
    -n 'bench$target:::tick { @ = count(); }'
if command -v "$BPFTRACE" >/dev/null; then
	cost usdt_bpftrace bcount "$BPFTRACE" -c "./u @N@" \
	    -e "usdt:$tmp/u:bench:tick { @ = count(); }"
	awk -v d="$cost_usdt_dtrace" -v b="$cost_usdt_bpftrace" 'BEGIN {
	    if (b > 0) printf("dtrace/bpftrace per USDT firing: %.2f\n",
	    d / b) }'
fi
exit 0

#!/bin/bash
# SPDX-License-Identifier: MIT
#
# ptrace-vs-ltrace.sh: the per-firing cost of a pid probe on the ptrace
# engine against ltrace (breakpoints through ptrace too) and uftrace
# (in-process patching), on the same workload in the same run.  It
# measures; it passes or fails nothing.
#
# The workload is tests/shell/data/ptrace-target.c "loop N": N calls of
# bench_fn.  Each tracer runs it with N calls and with none; the cost per
# firing is (wall(N) - wall(0)) / N, so start-up and attaching cancel out,
# median of RUNS runs:
#
#   dtrace  -x engine=ptrace -c './t loop N'
#           -n 'pid$target::bench_fn:entry { @ = count(); }'
#                                          (a breakpoint: bench_fn's first
#                                          5 bytes end in its ret)
#   ltrace  -x bench_fn -c ./t loop N      (entry and return breakpoints)
#
# Then the counting sites (os/linux/ptrace/dt_ptrace_fast.c: a jmp to a
# trampoline that counts in the process) against uftrace, both on the
# program built with -fpatchable-function-entry=5 (./tu), whose entry
# nops make room for a jump, with 10 NFAST calls (NFAST for uftrace,
# whose trace grows with them):
#
#   dtrace  -x engine=ptrace -c './tu loop N'
#           -n 'pid$target::bench_fn:entry { @ = count(); }'
#   uftrace record -P bench_fn ./tu loop N
#
# Then the syscall provider: N getppid() calls (tests/bench/getppid_loop.c)
#
#   dtrace  -x engine=ptrace -c './g N'
#           -n 'syscall::getppid:entry { @ = count(); }'   (seccomp filter:
#                                          only getppid stops)
#   strace  -f -c -e trace=getppid ./g N
#
# Each tracer's count is checked against N (OK / MISMATCH).  Run it as any
# user, from anywhere:
#
#   tests/bench/ptrace-vs-ltrace.sh [path/to/dtrace]
#
# The default dtrace is build/cmd/dtrace of this repository (a sanitizer
# build is several times slower: build without --enable-sanitizers to
# measure).  Environment: N (default 20000), NFAST (default 100 N), RUNS
# (default 3), CC.
# It installs nothing: apt-get install ltrace uftrace.

set -u

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
DTRACE=${1:-$repo/build/cmd/dtrace}
N=${N:-20000}
NFAST=${NFAST:-$((N * 100))}
RUNS=${RUNS:-3}
CC=${CC:-cc}

die() { echo "ptrace-vs-ltrace: $*" >&2; exit 2; }
[ -x "$DTRACE" ] || die "no dtrace at $DTRACE (pass its path as \$1)"
command -v "$CC" >/dev/null || die "missing: a C compiler ($CC)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$CC" -O1 -fno-inline -pthread -o "$tmp/t" \
    "$repo/tests/shell/data/ptrace-target.c" || die "cannot compile"
# uftrace patches functions with room for a call at their entry.
"$CC" -O1 -fno-inline -pthread -fpatchable-function-entry=5 -o "$tmp/tu" \
    "$repo/tests/shell/data/ptrace-target.c" || die "cannot compile"
cd "$tmp" || exit 2

. "$here/cost.sh"

lcount() { awk '$NF == "bench_fn" { print $4 }'; }

echo "workload: $N calls of bench_fn, median of $RUNS runs"
base=$(median $(for ((i = 0; i < RUNS; i++)); do wall ./t loop "$N"; done))
echo "untraced   $((base / 1000000)) ms for the whole run"
cost dtrace dcount "$DTRACE" -q -x engine=ptrace -c "./t loop @N@" \
    -n 'pid$target::bench_fn:entry { @ = count(); }'
if command -v ltrace >/dev/null; then
	ltr() { ltrace -x bench_fn -c -o "$tmp/lt" "$@"; cat "$tmp/lt"; }
	cost ltrace lcount ltr ./t loop @N@
	awk -v d="$cost_dtrace" -v l="$cost_ltrace" 'BEGIN {
	    printf("dtrace/ltrace per firing: %.2f\n", d / l) }'
else
	echo "ltrace: not installed (apt-get install ltrace)"
fi

echo
echo "workload: bench_fn (entry nops), median of $RUNS runs: $((NFAST * 10))" \
    "calls for dtrace, $NFAST for uftrace (whose trace grows with them)"
# cost reads N: the counting sites need many calls to show at all.
N=$((NFAST * 10)) cost dtrace_fast dcount "$DTRACE" -q -x engine=ptrace \
    -c "./tu loop @N@" -n 'pid$target::bench_fn:entry { @ = count(); }'
awk -v d="$cost_dtrace" -v f="$cost_dtrace_fast" 'BEGIN {
    if (f > 0) printf("breakpoint/counting site per firing: %.0f\n", d / f) }'
if command -v uftrace >/dev/null &&
    uftrace record -d "$tmp/uf.data" -P bench_fn ./tu loop 10 \
    >/dev/null 2>&1; then
	ucount() {
		uftrace report -d "$tmp/uf.data" 2>/dev/null |
		    awk '$NF == "bench_fn" { print $(NF - 1) }'
	}
	N=$NFAST cost uftrace ucount uftrace record -d "$tmp/uf.data" \
	    -P bench_fn ./tu loop @N@
	awk -v d="$cost_dtrace" -v f="$cost_dtrace_fast" -v u="$cost_uftrace" \
	    'BEGIN { if (u > 0) printf("dtrace/uftrace per firing: " \
	    "breakpoint %.1f, counting site %.2f\n", d / u, f / u) }'
else
	echo "uftrace: not installed, or cannot patch the workload"
fi

echo
echo "workload: $N getppid() calls, median of $RUNS runs"
"$CC" -O2 -o "$tmp/g" "$here/getppid_loop.c" || die "cannot compile"
cost dtrace_sys dcount "$DTRACE" -q -x engine=ptrace -c "./g @N@" \
    -n 'syscall::getppid:entry { @ = count(); }'
if command -v strace >/dev/null; then
	scount() { awk '$NF == "getppid" { print $4 }' "$tmp/st"; }
	str() { strace -f -c -e trace=getppid -o "$tmp/st" "$@"; }
	cost strace scount str ./g @N@
	awk -v d="$cost_dtrace_sys" -v s="$cost_strace" 'BEGIN {
	    if (s > 0) printf("dtrace/strace per system call: %.2f\n", d / s) }'
else
	echo "strace: not installed (apt-get install strace)"
fi
exit 0

#!/bin/bash
# SPDX-License-Identifier: MIT
#
# pid-vs-bpftrace.sh: the per-firing cost of a pid probe on the BPF engine
# (a uprobe running our program) against bpftrace's uprobe on the same
# function, in the same run.  It measures; it passes or fails nothing.
#
# The workload is uprobe_loop.c: "fn N", N calls of bench_fn, and "usdt
# N", N passes over <sys/sdt.h>'s DTRACE_PROBE1(bench, tick, i) (needs
# systemtap-sdt-dev).  It times its own loop in CPU time (see there), so
# that a tracer's start-up and attaching, and other programs on a busy
# machine, are not in the measure; the cost per firing is (loop traced -
# loop untraced) / N, median of RUNS runs, each timing the untraced loop
# afresh:
#
#   dtrace    -c './w fn N' -n 'pid$target::bench_fn:entry { @ = count(); }'
#   bpftrace  -c './w fn N' -e 'uprobe:./w:bench_fn { @ = count(); }'
#   dtrace    -c './w usdt N' -n 'bench$target:::tick { @ = count(); }'
#   bpftrace  -c './w usdt N' -e 'usdt:./w:bench:tick { @ = count(); }'
#
# Each tracer's count is checked against N (OK / MISMATCH).  Then one more
# run of each with kernel.bpf_stats_enabled gives the BPF program's own
# time per firing (run_time_ns / run_cnt, see progstat.sh): the part of
# the cost that is the tracer's program, apart from the uprobe's trap and
# single step, which are the kernel's and the same for both.  Run as root:
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
"$CC" -O2 -o "$tmp/w" "$here/uprobe_loop.c" ||
    die "cannot compile uprobe_loop.c (apt-get install systemtap-sdt-dev)"
cd "$tmp" || exit 2

. "$here/cost.sh"
. "$here/progstat.sh"

bcount() { awk '$1 == "@:" { print $2 }'; }

# The loop's own time in ns of "$@" (output to $tmp/out).
loop_ns() {
	rm -f "$tmp/ns"
	LOOP_NS_FILE=$tmp/ns "$@" >"$tmp/out" 2>&1
	cat "$tmp/ns" 2>/dev/null || echo 0
}

# selfcost NAME COUNT-FILTER CMD... (with @N@ for the number of firings):
# as cost.sh's cost, from the loop's own time; sets cost_NAME.
selfcost() {
	local name=$1 filter=$2 i a b got x ok wl
	shift 2
	local full=() d=()
	for x in "$@"; do
		full+=("${x//@N@/$N}")
	done
	wl=$(printf '%s\n' "${full[@]}" | grep -m1 '^\./w ')
	for ((i = 0; i < RUNS; i++)); do
		# shellcheck disable=SC2086 # the workload and its words
		a=$(loop_ns $wl)
		b=$(loop_ns "${full[@]}")
		d+=($(((b - a) / N)))
	done
	got=$($filter <"$tmp/out")
	[ "$got" = "$N" ] && ok=OK || ok="MISMATCH ($got)"
	printf '%-14s %8d ns/firing   count %s\n' "$name" \
	    "$(median "${d[@]}")" "$ok"
	eval "cost_$name=$(median "${d[@]}")"
}

# bpfcost NAME CMD... (with @N@): one more run with the kernel's program
# statistics on, sampling the tracer's most-run program while it runs
# (its descriptors close when it exits): the BPF program's own time per
# firing, without the trap and single step both tracers share.  Sets
# bpf_NAME.
bpfcost() {
	local name=$1 x pid st= old t c
	shift
	local full=()
	for x in "$@"; do
		full+=("${x//@N@/$N}")
	done
	if [ ! -w "$bpf_stats" ]; then
		printf '%-14s %8s\n' "$name" "n/a (no $bpf_stats)"
		return
	fi
	old=$(cat "$bpf_stats")
	echo 1 >"$bpf_stats"
	"${full[@]}" >/dev/null 2>&1 &
	pid=$!
	# dtrace(1) runs the tracer in a child of its guard process.
	while kill -0 "$pid" 2>/dev/null; do
		x=$(for p in "$pid" $(pgrep -P "$pid"); do
			prog_stat "$p"
		done | sort -k2,2n | tail -1)
		[ -n "$x" ] && st=$x
		sleep 0.05
	done
	wait "$pid"
	echo "$old" >"$bpf_stats"
	read -r t c <<<"${st:-0 0}"
	if [ "${c:-0}" -eq 0 ]; then
		printf '%-14s %8s\n' "$name" "n/a (no program statistics)"
		return
	fi
	eval "bpf_$name=$((t / c))"
	printf '%-14s %8d ns/firing in the BPF program (%d runs seen)\n' \
	    "$name" "$((t / c))" "$c"
}

ratio() {
	awk -v d="$2" -v b="$3" -v w="$1" 'BEGIN {
	    if (b > 0) printf("dtrace/bpftrace per %s firing: %.2f\n", w,
	    d / b) }'
}

have_bpftrace=false
command -v "$BPFTRACE" >/dev/null && have_bpftrace=true
$have_bpftrace || echo "bpftrace: not installed (apt-get install bpftrace)"

# compare WHAT WORKLOAD DSCRIPT BSCRIPT: both tracers' cost per firing,
# whole and of the BPF program alone, and their ratios.
compare() {
	local what=$1 wl=$2 d=$3 b=$4 n
	n=$(echo "$what" | tr 'A-Z' 'a-z')
	selfcost "${n}_dtrace" dcount "$DTRACE" -q -c "./w $wl @N@" -n "$d"
	if $have_bpftrace; then
		selfcost "${n}_bpftrace" bcount "$BPFTRACE" -c "./w $wl @N@" \
		    -e "$b"
		eval ratio "$what" "\$cost_${n}_dtrace" "\$cost_${n}_bpftrace"
	fi
	bpfcost "${n}_dtrace" "$DTRACE" -q -c "./w $wl @N@" -n "$d"
	if $have_bpftrace; then
		bpfcost "${n}_bpftrace" "$BPFTRACE" -c "./w $wl @N@" -e "$b"
		eval ratio "'$what (BPF program alone)'" \
		    "\${bpf_${n}_dtrace:-0}" "\${bpf_${n}_bpftrace:-0}"
	fi
}

echo "workload: $N calls of bench_fn, median of $RUNS runs"
compare pid fn 'pid$target::bench_fn:entry { @ = count(); }' \
    "uprobe:$tmp/w:bench_fn { @ = count(); }"
echo "workload: $N passes over the USDT probe bench:tick"
compare USDT usdt 'bench$target:::tick { @ = count(); }' \
    "usdt:$tmp/w:bench:tick { @ = count(); }"
exit 0

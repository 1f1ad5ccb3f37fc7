#!/bin/bash
# SPDX-License-Identifier: MIT
#
# stacks.sh: aggregating on stacks, dtrace against bpftrace.  It
# measures; it passes or fails nothing (exit status 0 unless it could not
# run at all).
#
# The workload, tests/bench/stack_loop.c, makes N getppid() calls, call i
# from a user stack DEPTH calls deep spelled by the bits of i: N = 2^DEPTH
# (default 2^17 = 131,072) calls, as many distinct user stacks, each
# DEPTH * 2 + 3 frames deep.  Under
#   dtrace   -q -x aggsize=512m -c 'stack_loop N DEPTH' -n
#            'syscall::getppid:entry /pid == $target/ { @[ustack()] = count(); }'
#   bpftrace -c 'stack_loop N DEPTH' -e
#            'tracepoint:syscalls:sys_enter_getppid /pid == cpid/ { @[ustack] = count(); }'
# (and the same with stack() / kstack: one kernel stack for them all),
# median of RUNS runs:
#
#   per firing   (loop CPU traced - loop CPU untraced) / N, in ns: taking
#                the stack and counting it, in the loop's own time (the
#                BPF program runs there); dtrace walks the user stack by
#                the binary's unwind tables (.eh_frame) when it has them
#                for the process, bpftrace by frame pointers (the
#                workload has them, so both get every frame)
#   at exit      the tracer's CPU time less the loop's, less the same at
#                N = 1: reading the map, symbolising every frame of every
#                stack, printing
#   stacks       distinct stacks printed (a tracer that loses some shows
#                fewer: bpftrace's stack map drops colliding ones)
#   BPF ns/run   the tracer's BPF program alone, from the kernel's
#                statistics (kernel.bpf_stats_enabled, on for these
#                runs only, which are separate, as the statistics add
#                two clock reads a run): run_time_ns / run_cnt of its
#                program that ran N times (or a few more: other
#                processes' getppid()), read while the loop, done, waits
#                (STACK_LOOP_HOLD); the most direct comparison, without
#                the tracepoint's own cost that both tools share
#
# Run as root, from anywhere:
#
#   tests/bench/stacks.sh [path/to/dtrace]
#
# The default dtrace is build/cmd/dtrace of this repository.  Environment:
# DEPTH (default 17), RUNS (default 3), CC (default cc), BPFTRACE.  A run
# takes about a minute a tool: bpftrace's exit is the longest part.

set -u

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
DTRACE=${1:-$repo/build/cmd/dtrace}
DEPTH=${DEPTH:-17}
RUNS=${RUNS:-3}
CC=${CC:-cc}
BPFTRACE=${BPFTRACE:-bpftrace}
N=$((1 << DEPTH))

die() { echo "stacks: $*" >&2; exit 2; }

[ "$(id -u)" -eq 0 ] || die "needs root (the BPF engine)"
[ -x "$DTRACE" ] || die "no dtrace at $DTRACE"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/stacks.XXXXXX") || die "mktemp"
old_stats=$(cat /proc/sys/kernel/bpf_stats_enabled 2>/dev/null || echo 0)
trap 'echo "$old_stats" >/proc/sys/kernel/bpf_stats_enabled 2>/dev/null
    rm -rf "$tmp"' EXIT
$CC -O2 -fno-omit-frame-pointer -fno-optimize-sibling-calls \
    -o "$tmp/stack_loop" "$here/stack_loop.c" || die "cannot compile stack_loop.c"
# cpu FILE CMD...: CMD's CPU time (user + system, with the children it
# waited for) in us into FILE
$CC -O2 -o "$tmp/cpu" "$here/child_cpu.c" || die "cannot compile child_cpu.c"

median() { printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf("%.2f", a / b); else print "n/a" }'; }

# run TOOL KIND n: sets lc (the loop's CPU ns), tc (the tracer's own CPU
# us: its rusage less the loop's), stacks (distinct stacks printed)
run() {
	local tool=$1 kind=$2 n=$3 d=$DEPTH
	[ "$n" -lt "$N" ] && d=0
	if [ "$tool" = dtrace ]; then
		"$tmp/cpu" "$tmp/time" "$DTRACE" -q -x aggsize=512m \
		    -c "$tmp/stack_loop $n $d" -n \
		    "syscall::getppid:entry /pid == \$target/ { @[$kind()] = count(); }" \
		    >"$tmp/out" 2>"$tmp/err"
		stacks=$(grep -cE '^ +[0-9]+$' "$tmp/out")
	else
		local b=ustack
		[ "$kind" = stack ] && b=kstack
		"$tmp/cpu" "$tmp/time" env BPFTRACE_MAX_MAP_KEYS=$((n + 1024)) \
		    BPFTRACE_MAP_KEYS_MAX=$((n + 1024)) "$BPFTRACE" -q \
		    -c "$tmp/stack_loop $n $d" -e \
		    "tracepoint:syscalls:sys_enter_getppid /pid == cpid/ { @[$b] = count(); }" \
		    >"$tmp/out" 2>"$tmp/err"
		stacks=$(grep -c '^@\[' "$tmp/out")
	fi
	lc=$(awk 'NF == 2 && $2 ~ /^[0-9]+$/ && $1 > 1000 { print $2; exit }' "$tmp/out")
	lc=${lc:-0}
	tc=$(($(awk '{ print $1 }' "$tmp/time") - lc / 1000))
}

# tracer CMD...: start the tracer CMD (its workload held at the end: the
# file $tmp/held appears then) in the background, its pid in tpid
tracer() {
	rm -f "$tmp/held"
	STACK_LOOP_HOLD=$tmp/held "$@" >"$tmp/out" 2>"$tmp/err" &
	tpid=$!
}

# prog_ns: wait for the workload to be held, then print run_time_ns /
# run_cnt of the BPF program of the tracer $tpid or its children (a
# libtool wrapper runs dtrace as its child) that ran at least N times,
# the fewest (the tracer's other programs, for process events, run on
# more system calls), and let the workload end
prog_ns() {
	local i p f
	for ((i = 0; i < 3000; i++)); do
		[ -e "$tmp/held" ] && break
		kill -0 "$tpid" 2>/dev/null || break
		sleep 0.05
	done
	for p in $tpid $(pgrep -P "$tpid"); do
		for f in /proc/"$p"/fdinfo/*; do
			awk '/^prog_type:/ { p = 1 } /^run_time_ns:/ { t = $2 }
			    /^run_cnt:/ { c = $2 }
			    END { if (p && c > 0) print t, c }' "$f" 2>/dev/null
		done
	done | sort -k2,2n | awk -v n="$N" '$2 >= n { printf("%d\n", $1 / $2); exit }'
	rm -f "$tmp/held"
	wait "$tpid"
}

# bpf_ns TOOL KIND: the BPF run time per firing of TOOL's program, median
# of RUNS runs, in bn (0 when the kernel's statistics cannot be had)
stats=/proc/sys/kernel/bpf_stats_enabled
bpf_ns() {
	local tool=$1 kind=$2 b=ustack r v=()
	[ "$kind" = stack ] && b=kstack
	bn=0
	[ -w "$stats" ] || return
	for ((r = 0; r < RUNS; r++)); do
		echo 1 >"$stats"
		if [ "$tool" = dtrace ]; then
			tracer "$DTRACE" -q -x aggsize=512m \
			    -c "$tmp/stack_loop $N $DEPTH" -n \
			    "syscall::getppid:entry /pid == \$target/ { @[$kind()] = count(); }"
		else
			tracer env BPFTRACE_MAX_MAP_KEYS=$((N + 1024)) \
			    BPFTRACE_MAP_KEYS_MAX=$((N + 1024)) "$BPFTRACE" -q \
			    -c "$tmp/stack_loop $N $DEPTH" -e \
			    "tracepoint:syscalls:sys_enter_getppid /pid == cpid/ { @[$b] = count(); }"
		fi
		v+=($(prog_ns))
		echo "$old_stats" >"$stats"
	done
	[ ${#v[@]} -gt 0 ] && bn=$(median "${v[@]}")
}

tools=dtrace
command -v "$BPFTRACE" >/dev/null 2>&1 && tools="dtrace bpftrace" ||
    echo "note: no bpftrace: no peer (apt-get install bpftrace)"
echo "stacks: $(uname -r), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "N = $N calls, $N distinct user stacks $((DEPTH * 2 + 3)) frames deep, median of $RUNS runs"

declare -a base
for ((i = 0; i < RUNS; i++)); do
	"$tmp/stack_loop" "$N" "$DEPTH" >"$tmp/out"
	base+=($(awk '{ print $2 }' "$tmp/out"))
done
b=$(median "${base[@]}")
printf 'untraced loop: %d ms CPU\n\n' $((b / 1000000))
printf '%-9s %-8s %12s %12s %12s %8s %12s\n' tool key "ns/firing" "exit ms CPU" \
    "fixed ms" stacks "BPF ns/run"
for kind in ustack stack; do
	for tool in $tools; do
		fx=() per=() ex=()
		for ((i = 0; i < RUNS; i++)); do
			run "$tool" "$kind" 1
			fx+=($tc)
		done
		f=$(median "${fx[@]}")
		for ((i = 0; i < RUNS; i++)); do
			run "$tool" "$kind" "$N"
			per+=($(((lc - b) / N)))
			ex+=($(((tc - f) / 1000)))
		done
		p=$(median "${per[@]}") e=$(median "${ex[@]}")
		bpf_ns "$tool" "$kind"
		printf '%-9s %-8s %12d %12d %12d %8d %12d\n' "$tool" "$kind" \
		    "$p" "$e" $((f / 1000)) "$stacks" "$bn"
		eval "p_${tool}_$kind=$p e_${tool}_$kind=$e b_${tool}_$kind=$bn"
	done
done
if [ "$tools" != dtrace ]; then
	echo
	echo "ratio per firing @[ustack()] dtrace/bpftrace: $(ratio "$p_dtrace_ustack" "$p_bpftrace_ustack")"
	echo "ratio per firing @[stack()] dtrace/bpftrace: $(ratio "$p_dtrace_stack" "$p_bpftrace_stack")"
	echo "ratio at exit, $N user stacks, dtrace/bpftrace: $(ratio "$e_dtrace_ustack" "$e_bpftrace_ustack")"
	echo "ratio BPF run time per firing @[ustack()] dtrace/bpftrace: $(ratio "$b_dtrace_ustack" "$b_bpftrace_ustack")"
	echo "ratio BPF run time per firing @[stack()] dtrace/bpftrace: $(ratio "$b_dtrace_stack" "$b_bpftrace_stack")"
fi

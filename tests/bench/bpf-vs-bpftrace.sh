#!/bin/bash
# SPDX-License-Identifier: MIT
#
# bpf-vs-bpftrace.sh: measure dtrace(1)'s BPF engine against bpftrace on
# the same machine, in the same run.  It measures; it passes or fails
# nothing (exit status 0 unless it could not run at all).
#
#   1. Per-event overhead.  tests/bench/getppid_loop.c makes exactly N
#      getppid() calls; it is timed untraced, under
#        dtrace   -q -n 'syscall::getppid:entry { @[execname] = count(); }'
#        bpftrace -e 'tracepoint:syscalls:sys_enter_getppid { @[comm] = count(); }'
#      overhead = (traced - untraced) / N in ns per event, on the loop's
#      CPU time (user + system, which includes the BPF programs) and on its
#      wall time, median of RUNS runs.  Each tracer's count for the workload's process is checked
#      against N (OK / MISMATCH).  Each tracer is started in the background,
#      the workload runs once it has printed that it is attached (dtrace:
#      a BEGIN clause printing "ready"; bpftrace: "Attaching ..."), then the
#      tracer is stopped with SIGINT and its output parsed.
#  1b. The same clauses' BPF program run time per event, from the kernel's
#      statistics (kernel.bpf_stats_enabled, switched on for these runs
#      only): run_time_ns / run_cnt of each tracer's most-run program,
#      median of RUNS runs.  The most direct comparison of the two
#      programs; it leaves out the tracepoint's cost, which both share.
#      Each tool's program that does nothing on the same tracepoint too
#      (dtrace 'syscall::getppid:entry /pid == 0/ { }': a clause without
#      actions would record the firing; bpftrace
#      'tracepoint:syscalls:sys_enter_getppid { }'), and the ratio of the
#      keyed count to each.
#   2. Start-up to the first probe firing: `dtrace -q -n 'BEGIN { exit(0); }'`
#      (and the same with -x engine=bpf, since a BEGIN-only script runs on
#      the user-space interpreter) against `bpftrace -e 'BEGIN { exit(); }'`.
#      hyperfine if installed, else a loop of 10 runs.
#   3. Attaching and detaching every system call entry:
#        dtrace   -q -n 'syscall:::entry { @n = count(); } tick-1s { exit(0); }'
#        bpftrace -e 'tracepoint:syscalls:sys_enter_* { @n = count(); } interval:s:1 { exit(); }'
#      wall time minus 1 s ~ start-up + attach + detach; each run has a
#      timeout of TIMEOUT seconds (reported if hit).
#   4. Peak RSS: VmHWM of each tracer just before SIGINT in (1), and
#      /usr/bin/time's maximum RSS for (3) if /usr/bin/time is installed.
#
# Run as root, from anywhere:
#
#   tests/bench/bpf-vs-bpftrace.sh [path/to/dtrace]
#
# The default dtrace is build/cmd/dtrace of this repository.  Environment:
# N (events, default 2000000), RUNS (default 3), TIMEOUT (seconds, default
# 120), BPFTRACE (default: bpftrace on PATH), CC (default cc).
# It installs nothing: it names what is missing (bpftrace: its columns are
# skipped; hyperfine and /usr/bin/time are optional) and goes on.
# Other load on the machine shows up in the figures: run it on a quiet one.

set -u

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
DTRACE=${1:-$repo/build/cmd/dtrace}
N=${N:-2000000}
RUNS=${RUNS:-3}
TIMEOUT=${TIMEOUT:-120}
BPFTRACE=${BPFTRACE:-bpftrace}
CC=${CC:-cc}
WNAME=getppid_loop	# the workload's process name (execname / comm)

die() { echo "bpf-vs-bpftrace: $*" >&2; exit 2; }
note() { echo "note: $*"; }

# ---------------------------------------------------------------- set-up

[ "$(id -u)" = 0 ] || die "run as root (the tracers need BPF)"
[ -x "$DTRACE" ] || die "no dtrace at $DTRACE (build the project, or pass its path as \$1)"
command -v "$CC" >/dev/null || die "missing: a C compiler ($CC); apt-get install gcc"
command -v timeout >/dev/null || die "missing: timeout (coreutils)"

have_bpftrace=1 have_hyperfine=1 have_time=1
if ! command -v "$BPFTRACE" >/dev/null; then
	have_bpftrace=0
	note "missing: bpftrace (apt-get install bpftrace); its measurements are skipped"
fi
command -v hyperfine >/dev/null ||
	{ have_hyperfine=0; note "missing: hyperfine (optional; apt-get install hyperfine); start-up uses a loop of 10 runs"; }
[ -x /usr/bin/time ] ||
	{ have_time=0; note "missing: /usr/bin/time (optional; apt-get install time); no peak RSS for (3)"; }

tmp=$(mktemp -d /tmp/bpf-vs-bpftrace.XXXXXX) || die "mktemp failed"
tracer_pid=
cleanup() {
	[ -n "$tracer_pid" ] && kill -INT "$tracer_pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

W=$tmp/$WNAME
"$CC" -O2 -o "$W" "$here/getppid_loop.c" || die "cannot compile $here/getppid_loop.c"

now_ns() { date +%s%N; }
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "" }'; }
# div A B [fmt]: A / B, or n/a
div() { awk -v a="$1" -v b="$2" -v f="${3:-%.2f}" 'BEGIN {
	if (a == "" || b == "" || a == "n/a" || b == "n/a" || b + 0 == 0) print "n/a";
	else printf f "\n", a / b }'; }
ms() { div "$1" 1000000 "%.1f"; }

echo "bpf-vs-bpftrace: $(uname -r), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "dtrace:   $DTRACE"
[ $have_bpftrace = 1 ] && echo "bpftrace: $(command -v "$BPFTRACE") ($("$BPFTRACE" --version 2>&1 | head -1))"
echo "N=$N events, RUNS=$RUNS, TIMEOUT=${TIMEOUT}s"
echo

# start_tracer TAG READY-REGEX CMD...: start CMD in the background with its
# output in $tmp/TAG.out and .err; wait until READY-REGEX shows in its
# stdout.  Sets tracer_pid; returns 1 (with the reason on stdout) if the
# tracer exits or is not ready within 60 s.
start_tracer() {
	local tag=$1 ready=$2 i
	shift 2
	"$@" >"$tmp/$tag.out" 2>"$tmp/$tag.err" &
	tracer_pid=$!
	for ((i = 0; i < 600; i++)); do
		grep -q -- "$ready" "$tmp/$tag.out" && return 0
		if ! kill -0 "$tracer_pid" 2>/dev/null; then
			wait "$tracer_pid"
			echo "  $tag exited with status $? before attaching: $(head -3 "$tmp/$tag.err" | tr '\n' ' ')"
			tracer_pid=
			return 1
		fi
		sleep 0.05
	done
	echo "  $tag not attached after 60 s: $(head -3 "$tmp/$tag.err" | tr '\n' ' ')"
	kill -INT "$tracer_pid"; wait "$tracer_pid"; tracer_pid=
	return 1
}

# stop_tracer: SIGINT, wait for the tracer to finish; its exit status in st.
# bpftrace now and then misses the SIGINT and keeps tracing, so it is
# sent again every 10 s while the tracer runs.
stop_tracer() {
	local dog
	kill -INT "$tracer_pid"
	( while sleep 10; do kill -INT "$tracer_pid" 2>/dev/null || exit; done ) &
	dog=$!
	wait "$tracer_pid"; st=$?
	kill "$dog" 2>/dev/null; wait "$dog" 2>/dev/null
	tracer_pid=
}

vmhwm_kb() { awk '/^VmHWM:/ { print $2 }' "/proc/$1/status" 2>/dev/null; }

# time_workload: run the workload; it prints the loop's wall and CPU ns.
time_workload() { "$W" "$N"; }

# ------------------------------------------------- 1. per-event overhead

echo "== 1. per-event overhead: $N getppid() calls, median of $RUNS runs"

D_SCRIPT='BEGIN { printf("ready\n"); } syscall::getppid:entry { @[execname] = count(); }'
B_SCRIPT='tracepoint:syscalls:sys_enter_getppid { @[comm] = count(); }'
tools="dtrace"
[ $have_bpftrace = 1 ] && tools="dtrace bpftrace"

for f in base.w base.c; do : >"$tmp/$f"; done
for t in $tools; do
	for f in w c ow oc rss cnt; do : >"$tmp/$t.$f"; done
done

for ((r = 1; r <= RUNS; r++)); do
	read -r bw bc < <(time_workload)
	echo "$bw" >>"$tmp/base.w"; echo "$bc" >>"$tmp/base.c"
	line="  run $r: untraced $(ms "$bw")/$(ms "$bc")"
	for t in $tools; do
		if [ "$t" = dtrace ]; then
			start_tracer dtrace '^ready' "$DTRACE" -q -n "$D_SCRIPT" || continue
		else
			start_tracer bpftrace '^Attaching' "$BPFTRACE" -e "$B_SCRIPT" || continue
		fi
		read -r tw tc < <(time_workload)
		rss=$(vmhwm_kb "$tracer_pid")
		stop_tracer
		if [ "$t" = dtrace ]; then
			cnt=$(awk -v n="$WNAME" '$1 == n { print $2 }' "$tmp/dtrace.out")
		else
			cnt=$(awk -F': ' -v n="@[$WNAME]" '$1 == n { print $2 }' "$tmp/bpftrace.out")
		fi
		[ "$st" = 0 ] || echo "  $t exited with status $st: $(grep -v RLIMIT_MEMLOCK "$tmp/$t.err" | head -3 | tr '\n' ' ')"
		echo "$tw" >>"$tmp/$t.w"; echo "$tc" >>"$tmp/$t.c"
		echo $((tw - bw)) >>"$tmp/$t.ow"; echo $((tc - bc)) >>"$tmp/$t.oc"
		echo "${rss:-0}" >>"$tmp/$t.rss"
		echo "${cnt:-none}" >>"$tmp/$t.cnt"
		line="$line, $t $(ms "$tw")/$(ms "$tc") (count ${cnt:-none})"
	done
	echo "$line ms wall/CPU"
done

echo
echo "  CPU = the loop's user + system time, which includes the BPF programs"
echo "  run in its context and is less disturbed by other load than wall time."
printf '  %-10s %9s %9s %9s %12s %12s %16s %12s\n' tool "wall ms" "CPU ms" "CPU ns/ev" \
    "overhead CPU" "(wall)" "count == N ?" "peak RSS KB"
printf '  %-10s %9s %9s %9s %12s %12s\n' "" "" "" "" "ns/event" "ns/event"
bw=$(median <"$tmp/base.w"); bc=$(median <"$tmp/base.c")
printf '  %-10s %9s %9s %9s %12s %12s %16s %12s\n' untraced "$(ms "$bw")" "$(ms "$bc")" \
    "$(div "$bc" "$N" %.1f)" - - - -
for t in $tools; do
	if [ ! -s "$tmp/$t.w" ]; then
		printf '  %-10s %s\n' "$t" "failed (see above)"
		continue
	fi
	tw=$(median <"$tmp/$t.w"); tc=$(median <"$tmp/$t.c")
	ow=$(median <"$tmp/$t.ow"); oc=$(median <"$tmp/$t.oc")
	rss=$(sort -n "$tmp/$t.rss" | tail -1)
	bad=$(grep -v -x -c -- "$N" "$tmp/$t.cnt")
	if [ "$bad" = 0 ]; then chk=OK; else chk="MISMATCH($(sort -u "$tmp/$t.cnt" | tr '\n' ' ' | sed 's/ $//'))"; fi
	printf '  %-10s %9s %9s %9s %12s %12s %16s %12s\n' "$t" "$(ms "$tw")" "$(ms "$tc")" \
	    "$(div "$tc" "$N" %.1f)" "$(div "$oc" "$N" %.1f)" "$(div "$ow" "$N" %.1f)" "$chk" "$rss"
	eval "oc_$t=\$oc ow_$t=\$ow rss1_$t=\$rss"
done
if [ -s "$tmp/dtrace.w" ] && [ $have_bpftrace = 1 ] && [ -s "$tmp/bpftrace.w" ]; then
	echo "  ratio dtrace/bpftrace: overhead per event $(div "$oc_dtrace" "$oc_bpftrace")x CPU," \
	    "$(div "$ow_dtrace" "$ow_bpftrace")x wall; peak RSS $(div "$rss1_dtrace" "$rss1_bpftrace")x"
fi
echo

# ------------------------------------- 1b. BPF program run time per event

# The kernel's own account of each program (kernel.bpf_stats_enabled):
# run_time_ns / run_cnt of the tracer's most-run program, read from the
# /proc fdinfo of its program file descriptors.  This is the time in the
# BPF program alone, without the tracepoint's own cost that both tools
# share; the statistics add a clock read on each side of every run, so
# these runs are separate from (1).

. "$here/progstat.sh"
stats=$bpf_stats

if [ -w "$stats" ]; then
	echo "== 1b. BPF program run time per event (kernel.bpf_stats_enabled), median of $RUNS runs"
	old_stats=$(cat "$stats")
	restore_stats() { echo "$old_stats" >"$stats"; }
	trap 'restore_stats; cleanup' EXIT
	# and each tool's program that does nothing on the same tracepoint
	# (dtrace's with a predicate never true: a clause with no action
	# records the firing, as in DTrace)
	ptools="$tools dtrace0"
	[ $have_bpftrace = 1 ] && ptools="$ptools bpftrace0"
	for t in $ptools; do : >"$tmp/$t.prog"; done
	for ((r = 1; r <= RUNS; r++)); do
		line="  run $r:"
		for t in $ptools; do
			case $t in
			dtrace) start_tracer dtrace '^ready' "$DTRACE" -q -n "$D_SCRIPT" || continue ;;
			dtrace0) start_tracer dtrace0 '^ready' "$DTRACE" -q -n \
			    'BEGIN { printf("ready\n"); } syscall::getppid:entry /pid == 0/ { }' || continue ;;
			bpftrace) start_tracer bpftrace '^Attaching' "$BPFTRACE" -e "$B_SCRIPT" || continue ;;
			bpftrace0) start_tracer bpftrace0 '^Attaching' "$BPFTRACE" -e \
			    'tracepoint:syscalls:sys_enter_getppid { }' || continue ;;
			esac
			echo 1 >"$stats"
			time_workload >/dev/null
			pt= pc=
			read -r pt pc < <(prog_stat "$tracer_pid")
			restore_stats
			stop_tracer
			if [ -z "${pc:-}" ]; then
				line="$line $t (no program statistics)"
				continue
			fi
			div "$pt" "$pc" %.1f >>"$tmp/$t.prog"
			line="$line $t $(div "$pt" "$pc" %.1f) ns/run ($pc runs)"
		done
		echo "$line"
	done
	for t in $ptools; do
		eval "prog_$t=\$(median <\"\$tmp/\$t.prog\")"
	done
	printf '  %-10s %14s\n' tool "BPF ns/event"
	for t in $ptools; do
		eval "v=\${prog_$t:-}"
		printf '  %-10s %14s\n' "$t" "${v:-n/a}"
	done
	echo "  (dtrace0, bpftrace0: a program that does nothing, on the same tracepoint)"
	if [ -n "${prog_dtrace:-}" ] && [ -n "${prog_bpftrace:-}" ]; then
		echo "  ratio dtrace/bpftrace: BPF run time per event $(div "$prog_dtrace" "$prog_bpftrace")x"
	fi
	if [ -n "${prog_dtrace:-}" ] && [ -n "${prog_dtrace0:-}" ]; then
		echo "  ratio keyed count/empty program, dtrace: $(div "$prog_dtrace" "$prog_dtrace0")x"
	fi
	if [ -n "${prog_dtrace:-}" ] && [ -n "${prog_bpftrace0:-}" ]; then
		echo "  ratio dtrace keyed count/bpftrace empty program: $(div "$prog_dtrace" "$prog_bpftrace0")x"
	fi
	if [ -n "${prog_bpftrace:-}" ] && [ -n "${prog_bpftrace0:-}" ]; then
		echo "  ratio keyed count/empty program, bpftrace: $(div "$prog_bpftrace" "$prog_bpftrace0")x"
	fi
	echo
else
	note "cannot write $stats: no BPF program run times (1b)"
	echo
fi

# ------------------------------------------------------- 2. start-up time

echo "== 2. start-up to first probe firing (BEGIN, exit at once)"

# startup TAG CMD...: echo the median wall time in ms, or "failed".
startup() {
	local tag=$1 i t0 t1 st
	shift
	"$@" >"$tmp/su.out" 2>"$tmp/su.err"; st=$?
	if [ $st != 0 ]; then
		echo "  $tag exited with status $st: $(grep -v RLIMIT_MEMLOCK "$tmp/su.err" | head -3 | tr '\n' ' ')" >&2
		echo failed
		return
	fi
	if [ $have_hyperfine = 1 ]; then
		# One quoted command line for hyperfine's shell.
		local cmd="" a
		for a in "$@"; do cmd="$cmd $(printf '%q' "$a")"; done
		hyperfine -w 1 -r 10 -N --export-csv "$tmp/$tag.csv" "$cmd" >/dev/null 2>"$tmp/hf.err" ||
		    hyperfine -w 1 -r 10 --export-csv "$tmp/$tag.csv" "$cmd" >/dev/null 2>"$tmp/hf.err" ||
		    { echo "  hyperfine failed for $tag: $(head -2 "$tmp/hf.err")" >&2; echo failed; return; }
		# columns ...,mean,stddev,median,user,system,min,max (seconds)
		awk -F, 'NR == 2 { printf "%.1f\n", $(NF - 4) * 1000 }' "$tmp/$tag.csv"
	else
		for ((i = 0; i < 10; i++)); do
			t0=$(now_ns); "$@" >/dev/null 2>&1; t1=$(now_ns)
			echo $((t1 - t0))
		done | median | awk '{ printf "%.1f\n", $1 / 1e6 }'
	fi
}

su_d=$(startup dtrace "$DTRACE" -q -n 'BEGIN { exit(0); }')
su_db=$(startup dtrace-bpf "$DTRACE" -x engine=bpf -q -n 'BEGIN { exit(0); }')
su_b=n/a
[ $have_bpftrace = 1 ] && su_b=$(startup bpftrace "$BPFTRACE" -e 'BEGIN { exit(); }')
how="median of 10 runs"; [ $have_hyperfine = 1 ] && how="hyperfine median of 10 runs"
printf '  %-28s %10s ms   (%s)\n' "dtrace (default engine)" "$su_d" "$how"
printf '  %-28s %10s ms\n' "dtrace -x engine=bpf" "$su_db"
printf '  %-28s %10s ms\n' "bpftrace" "$su_b"
echo "  ratio dtrace/bpftrace: $(div "$su_d" "$su_b")x (default engine), $(div "$su_db" "$su_b")x (engine=bpf)"
echo

# ------------------------------------------- 3. attach/detach every syscall

echo "== 3. attach + detach every system call entry (wall - 1 s), median of $RUNS runs"

# attach TAG CMD...: run CMD RUNS times under timeout; prints a table row.
attach() {
	local tag=$1 r t0 t1 st rss
	shift
	: >"$tmp/at.t"; : >"$tmp/at.rss"
	for ((r = 1; r <= RUNS; r++)); do
		t0=$(now_ns)
		if [ $have_time = 1 ]; then
			/usr/bin/time -f %M -o "$tmp/at.time" \
			    timeout -s INT -k 10 "$TIMEOUT" "$@" >"$tmp/at.out" 2>"$tmp/at.err"; st=$?
		else
			timeout -s INT -k 10 "$TIMEOUT" "$@" >"$tmp/at.out" 2>"$tmp/at.err"; st=$?
		fi
		t1=$(now_ns)
		if [ $st = 124 ] || [ $st = 137 ]; then
			printf '  %-10s TIMEOUT after %s s (run %d)\n' "$tag" "$TIMEOUT" "$r"
			return
		fi
		if [ $st != 0 ]; then
			printf '  %-10s exited with status %s: %s\n' "$tag" "$st" \
			    "$(grep -v RLIMIT_MEMLOCK "$tmp/at.err" | head -3 | tr '\n' ' ')"
			return
		fi
		echo $((t1 - t0 - 1000000000)) >>"$tmp/at.t"
		[ $have_time = 1 ] && tail -1 "$tmp/at.time" >>"$tmp/at.rss"
	done
	at=$(median <"$tmp/at.t")
	rss=n/a; [ -s "$tmp/at.rss" ] && rss=$(sort -n "$tmp/at.rss" | tail -1)
	printf '  %-10s %8s %15s %15s   (runs: %s ms)\n' "$tag" "$nprobes" "$(ms "$at") ms" "$rss KB" \
	    "$(while read -r v; do ms "$v"; done <"$tmp/at.t" | tr '\n' ' ' | sed 's/ $//')"
	eval "at_$tag=\$at rss3_$tag=\$rss"
}

printf '  %-10s %8s %15s %15s\n' tool probes "wall - 1 s" "peak RSS"
nprobes=$(( $("$DTRACE" -l -n 'syscall:::entry' 2>/dev/null | wc -l) - 1 ))
attach dtrace "$DTRACE" -q -n 'syscall:::entry { @n = count(); } tick-1s { exit(0); }'
if [ $have_bpftrace = 1 ]; then
	nprobes=$("$BPFTRACE" -l 'tracepoint:syscalls:sys_enter_*' 2>/dev/null | wc -l)
	attach bpftrace "$BPFTRACE" -e 'tracepoint:syscalls:sys_enter_* { @n = count(); } interval:s:1 { exit(); }'
fi
if [ -n "${at_dtrace:-}" ] && [ -n "${at_bpftrace:-}" ]; then
	echo "  ratio dtrace/bpftrace: attach+detach $(div "$at_dtrace" "$at_bpftrace")x," \
	    "peak RSS $(div "${rss3_dtrace:-n/a}" "${rss3_bpftrace:-n/a}")x"
fi
echo "  (dtrace enables more than a few syscall probes through one raw_syscalls:sys_enter"
echo "   program; bpftrace attaches one program per syscalls:sys_enter_* tracepoint)"

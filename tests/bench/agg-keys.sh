#!/bin/bash
# SPDX-License-Identifier: MIT
#
# agg-keys.sh: how consuming an aggregation grows with its keys.  It
# measures; it passes or fails nothing (exit status 0 unless it could not
# run at all).
#
#   1. N distinct keys printed at exit.  tests/bench/getppid_loop.c makes
#      exactly N getppid() calls under
#        dtrace -q -x aggsize=256m -c 'getppid_loop N' \
#          -n 'syscall::getppid:entry /pid == $target/ { @[timestamp] = count(); }'
#      one key per call, all printed when the loop ends.  For each N (10k,
#      100k, 1M by default), median of RUNS runs: dtrace's wall time, the
#      loop's own wall time (it prints it), and dtrace's CPU time (user +
#      system: reading the map, merging, sorting, printing; the BPF
#      program runs in the loop's time, not dtrace's), of which the fixed
#      part (start-up, attaching, creating the map, exit) is cpu(1).  Per
#      key: (cpu(N) - cpu(1)) / N, and its ratio to the same at the
#      smallest N -- 1.00 for a consumer linear in the keys, N/10k for a
#      quadratic one.  CPU time rather than wall time, as other load on
#      the machine stretches wall times far more.  The printed keys are
#      counted against N (OK / MISMATCH), and dtrace's peak RSS is shown.
#   2. printa() every second of a 100k-key aggregation: the same loop
#      makes NP (100000) keys, then sleeps SECS (10) seconds while
#        tick-1s { printa(@); }
#      prints them all every second.  The command itself reads the CPU
#      time of the dtrace that started it (its parent: every thread's
#      /proc/PID/task/*/schedstat, in ns) when the keys are all in and
#      have been printed once, and again SECS - 2 seconds later; the same
#      reading of a run with tick-1s {} and no printa() is subtracted.
#      Reported: dtrace's CPU per interval in that steady window, in ms,
#      and, as before, the whole run's CPU (user + system) less the run
#      without printa(), per printing of the map (lines printed / NP) --
#      a figure that start-up's variance (creating the map took 0.5 to
#      1.6 s on a loaded machine) can swamp.
#
# The peer is bpftrace, which prints a map with the same number of keys;
# where it is installed (BPFTRACE, default bpftrace on PATH), part 1 also
# runs
#   bpftrace -e 'tracepoint:syscalls:sys_enter_getppid /pid == cpid/ { @[nsecs] = count(); }'
# with its key limit raised (BPFTRACE_MAX_MAP_KEYS, BPFTRACE_MAP_KEYS_MAX
# before 0.18) and prints the ratio of the two wall times, and part 2
# runs the same map with interval:s:1 { print(@); } against
# interval:s:1 { } and prints the ratio of the CPU per interval.
#
# Run as root, from anywhere:
#
#   tests/bench/agg-keys.sh [path/to/dtrace]
#
# The default dtrace is build/cmd/dtrace of this repository.  Environment:
# SIZES (default "10000 100000 1000000"), RUNS (default 3), NP (default
# 100000), SECS (default 10), CC (default cc), BPFTRACE, PARTS (default
# "1 2": which parts to run).  Other load on
# the machine shows in the figures: run it on a quiet one.

set -u

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
DTRACE=${1:-$repo/build/cmd/dtrace}
SIZES=${SIZES:-10000 100000 1000000}
RUNS=${RUNS:-3}
NP=${NP:-100000}
SECS=${SECS:-10}
CC=${CC:-cc}
BPFTRACE=${BPFTRACE:-bpftrace}
PARTS=${PARTS:-1 2}

die() { echo "agg-keys: $*" >&2; exit 2; }
note() { echo "note: $*"; }

[ "$(id -u)" -eq 0 ] || die "needs root (the BPF engine)"
[ -x "$DTRACE" ] || die "no dtrace at $DTRACE"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/agg-keys.XXXXXX") || die "mktemp"
trap 'rm -rf "$tmp"' EXIT
# No output here needs 1 GB (1M keys print in about 40 MB): a runaway
# writer is stopped there rather than filling the file system.
ulimit -f $((1 << 20))
$CC -O2 -o "$tmp/getppid_loop" "$here/getppid_loop.c" ||
    die "cannot compile getppid_loop.c"
# cpu FILE CMD...: run CMD, then write to FILE its CPU time (user +
# system, with the children it waited for) in us and its peak RSS in KB;
# /usr/bin/time shows CPU time only to 10 ms.
$CC -O2 -o "$tmp/cpu" "$here/child_cpu.c" || die "cannot compile child_cpu.c"

now() { date +%s%N; }
median() { printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"; }

S='syscall::getppid:entry /pid == $target/ { @[timestamp] = count(); }'

# one N: sets w (dtrace wall ns), l (loop wall ns), u (dtrace's own CPU
# us: its rusage, which includes the loop it waited for, less the loop's
# CPU time as the loop reports it), rss (KB), keys
run_dtrace() {
	local n=$1 t0 t1 lc
	t0=$(now)
	"$tmp/cpu" "$tmp/time" "$DTRACE" -q -x aggsize=256m \
	    -c "$tmp/getppid_loop $n" -n "$S" >"$tmp/out" 2>"$tmp/err"
	t1=$(now)
	w=$((t1 - t0))
	l=$(awk 'NF == 2 && $2 > 1000 { print $1; exit }' "$tmp/out")
	lc=$(awk 'NF == 2 && $2 > 1000 { print $2; exit }' "$tmp/out")
	u=$(($(awk '{ print $1 }' "$tmp/time") - ${lc:-0} / 1000))
	rss=$(awk '{ print $2 }' "$tmp/time")
	keys=$(grep -cE '^ +[0-9]+ +1$' "$tmp/out")
}

# the same under bpftrace: sets bw (wall ns), or empty
run_bpftrace() {
	local n=$1 t0 t1
	bw=
	command -v "$BPFTRACE" >/dev/null 2>&1 || return
	t0=$(now)
	# The key limit's variable was BPFTRACE_MAP_KEYS_MAX before 0.18.
	# Killed if it outlives its command by far, as part 2's are: a
	# bpftrace that did not exit once wrote gigabytes to $tmp.
	timeout -s KILL 600 env BPFTRACE_MAX_MAP_KEYS=$((n + 1024)) \
	    BPFTRACE_MAP_KEYS_MAX=$((n + 1024)) \
	    "$BPFTRACE" -q -c \
	    "$tmp/getppid_loop $n" -e \
	    'tracepoint:syscalls:sys_enter_getppid /pid == cpid/ { @[nsecs] = count(); }' \
	    >"$tmp/bout" 2>&1 || return
	t1=$(now)
	bw=$((t1 - t0))
}

has_part() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }

if has_part 1; then
echo "== 1. N distinct keys printed at exit (median of $RUNS)"
declare -a ws ls us
for ((i = 0; i < RUNS; i++)); do
	run_dtrace 1
	us+=($u)
done
base=$(median "${us[@]}")
printf 'fixed part, dtrace CPU at N = 1: %d ms\n' $((base / 1000))
printf '%9s %10s %10s %10s %12s %7s %9s %s\n' N "wall ms" "loop ms" \
    "CPU ms" "CPU ns/key" ratio "RSS MB" keys
first=
command -v "$BPFTRACE" >/dev/null 2>&1 ||
    note "no bpftrace: no peer column (install bpftrace for it)"
for n in $SIZES; do
	ws=() ls=() us=() bws=()
	for ((i = 0; i < RUNS; i++)); do
		run_dtrace "$n"
		ws+=($w) ls+=(${l:-0}) us+=($u)
		run_bpftrace "$n"
		[ -n "$bw" ] && bws+=($bw)
	done
	w=$(median "${ws[@]}") l=$(median "${ls[@]}") c=$(median "${us[@]}")
	per=$((((c - base) * 1000) / n))
	[ -z "$first" ] && first=$per
	[ "$keys" = "$n" ] && ok=OK || ok="MISMATCH ($keys)"
	printf '%9d %10d %10d %10d %12d %7.2f %9d %s\n' "$n" \
	    $((w / 1000000)) $((l / 1000000)) $((c / 1000)) "$per" \
	    "$(echo "$per $first" | awk '{ printf("%.2f", $2 ? $1 / $2 : 0) }')" \
	    $((rss / 1024)) "$ok"
	if [ ${#bws[@]} -gt 0 ]; then
		printf '%9s bpftrace wall %d ms, ratio dtrace/bpftrace at N = %d: %.2f\n' "" \
		    $(($(median "${bws[@]}") / 1000000)) "$n" \
		    "$(echo "$w $(median "${bws[@]}")" |
			awk '{ printf("%.2f", $1 / $2) }')"
	fi
done

fi

has_part 2 || exit 0
echo
echo "== 2. printa() every second of a $NP-key aggregation, $SECS s"
P='syscall::getppid:entry /execname == "getppid_loop"/ { @[timestamp] = count(); }'
[ "$SECS" -ge 4 ] || die "SECS must be at least 4"
# The steady window: from 1.5 s after the loop (its keys printed once) to
# SECS - 2 seconds later; the CPU of the parent (the tracer) in it, in ns,
# goes to $tmp/steady.
cat >"$tmp/work.sh" <<EOF
#!/bin/sh
tcpu() { cat /proc/\$PPID/task/*/schedstat | awk '{ s += \$1 } END { print s }'; }
"$tmp/getppid_loop" $NP >/dev/null
sleep 1.5
c0=\$(tcpu)
sleep $((SECS - 2))
echo \$((\$(tcpu) - c0)) >"$tmp/steady"
sleep 0.5
EOF
chmod +x "$tmp/work.sh"
# cpu CLAUSE: the whole run's CPU in ms; then steady: the window's, in ns
steady() { cat "$tmp/steady" 2>/dev/null || echo 0; }
cpu() {
	rm -f "$tmp/steady"
	"$tmp/cpu" "$tmp/time" "$DTRACE" -q -c "$tmp/work.sh" -n "$P $1" \
	    >"$tmp/out" 2>"$tmp/err"
	awk '{ printf("%d", $1 / 1000) }' "$tmp/time"
}
# bpftrace's -c wants an executable file, not a script.  A bpftrace that
# printed a map every second was seen to go on after its command ended
# (writing gigabytes): it is killed once the command is long over.
bcpu() {
	rm -f "$tmp/steady"
	"$tmp/cpu" "$tmp/time" timeout -s KILL $((SECS + 120)) \
	    env BPFTRACE_MAX_MAP_KEYS=$((NP + 1024)) \
	    BPFTRACE_MAP_KEYS_MAX=$((NP + 1024)) "$BPFTRACE" -q \
	    -c "/bin/sh $tmp/work.sh" -e \
	    "tracepoint:syscalls:sys_enter_getppid /comm == \"getppid_loop\"/ { @[nsecs] = count(); } $1" \
	    >"$tmp/bout" 2>"$tmp/berr"
	awk '{ printf("%d", $1 / 1000) }' "$tmp/time"
}
pis=() bis=() sis=() sbis=()
win=$((SECS - 2))
for ((i = 0; i < RUNS; i++)); do
	with=$(cpu 'tick-1s { printa(@); }')
	swith=$(steady)
	lines=$(grep -cE '^ +[0-9]+ +1$' "$tmp/out")
	without=$(cpu 'tick-1s { }')
	swithout=$(steady)
	# per printing of the whole map, however many there were
	np=$(((lines + NP / 2) / NP))
	[ "$np" -gt 0 ] || np=1
	pis+=($(((with - without) / np)))
	sis+=($(((swith - swithout) / win / 1000)))
	printf 'dtrace CPU: steady %d.%03d ms per interval (%d ms in %d s with printa(), %d ms without); whole run %d ms with printa(), %d ms without: %d ms per printing (%d lines printed: %d times the map)\n' \
	    $((sis[-1] / 1000)) $((sis[-1] % 1000)) $((swith / 1000000)) "$win" \
	    $((swithout / 1000000)) "$with" "$without" \
	    $(((with - without) / np)) "$lines" "$np"
	if command -v "$BPFTRACE" >/dev/null 2>&1; then
		bwith=$(bcpu 'interval:s:1 { print(@); }')
		sbwith=$(steady)
		blines=$(grep -cE '^@\[[0-9]+\]: 1$' "$tmp/bout")
		bwithout=$(bcpu 'interval:s:1 { }')
		sbwithout=$(steady)
		bnp=$(((blines + NP / 2) / NP))
		[ "$bnp" -gt 0 ] || bnp=1
		bis+=($(((bwith - bwithout) / bnp)))
		sbis+=($(((sbwith - sbwithout) / win / 1000)))
		printf 'bpftrace CPU: steady %d.%03d ms per interval (%d ms in %d s with print(@), %d ms without); whole run %d ms with print(@), %d ms without: %d ms per printing (%d lines printed: %d times the map)\n' \
		    $((sbis[-1] / 1000)) $((sbis[-1] % 1000)) \
		    $((sbwith / 1000000)) "$win" $((sbwithout / 1000000)) \
		    "$bwith" "$bwithout" $(((bwith - bwithout) / bnp)) \
		    "$blines" "$bnp"
	fi
done
pi=$(median "${pis[@]}")
si=$(median "${sis[@]}")
printf 'printa() of %d keys: %d.%03d ms of dtrace CPU per interval, steady (median of %d); %d ms per printing over the whole run\n' \
    "$NP" $((si / 1000)) $((si % 1000)) "$RUNS" "$pi"
if [ ${#bis[@]} -gt 0 ]; then
	bi=$(median "${bis[@]}")
	sbi=$(median "${sbis[@]}")
	printf 'ratio printa/print(@) per interval, dtrace/bpftrace: steady %s (%d.%03d ms / %d.%03d ms); whole run %s (%d ms / %d ms)\n' \
	    "$(echo "$si $sbi" | awk '{ printf("%.2f", $2 > 0 ? $1 / $2 : 0) }')" \
	    $((si / 1000)) $((si % 1000)) $((sbi / 1000)) $((sbi % 1000)) \
	    "$(echo "$pi $bi" | awk '{ printf("%.2f", $2 > 0 ? $1 / $2 : 0) }')" \
	    "$pi" "$bi"
fi

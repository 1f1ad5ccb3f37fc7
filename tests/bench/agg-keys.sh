#!/bin/bash
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
#      loop's own wall time (it prints it), and the time to consume the
#      aggregation, consume(N) = wall - loop, of which the fixed part
#      (start-up, attaching, creating the map, exit) is consume(1).  Per
#      key: (consume(N) - consume(1)) / N, and its ratio to the same at
#      the smallest N -- 1.00 for a consumer linear in the keys, N/10k for
#      a quadratic one.  The printed keys are counted against N (OK /
#      MISMATCH), and dtrace's peak RSS is shown.
#   2. printa() every second of a 100k-key aggregation: the same loop
#      makes NP (100000) keys, then sleeps SECS (10) seconds while
#        tick-1s { printa(@); }
#      prints them all every second; the same run with tick-1s {} and no
#      printa() is subtracted.  Reported: dtrace's CPU time (user + system)
#      per interval, in ms.
#
# There is no peer here: bpftrace, the natural one, prints a map with
# the same number of keys; where it is installed (BPFTRACE, default
# bpftrace on PATH), part 1 also runs
#   bpftrace -e 'tracepoint:syscalls:sys_enter_getppid /pid == cpid/ { @[nsecs] = count(); }'
# with its key limit raised (BPFTRACE_MAX_MAP_KEYS) and prints the ratio
# of the two wall times.
#
# Run as root, from anywhere:
#
#   tests/bench/agg-keys.sh [path/to/dtrace]
#
# The default dtrace is build/cmd/dtrace of this repository.  Environment:
# SIZES (default "10000 100000 1000000"), RUNS (default 3), NP (default
# 100000), SECS (default 10), CC (default cc), BPFTRACE.  It needs
# /usr/bin/time for CPU times and peak RSS.  Other load on the machine
# shows in the figures: run it on a quiet one.

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

die() { echo "agg-keys: $*" >&2; exit 2; }
note() { echo "note: $*"; }

[ "$(id -u)" -eq 0 ] || die "needs root (the BPF engine)"
[ -x "$DTRACE" ] || die "no dtrace at $DTRACE"
[ -x /usr/bin/time ] || die "needs /usr/bin/time (apt-get install time)"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/agg-keys.XXXXXX") || die "mktemp"
trap 'rm -rf "$tmp"' EXIT
$CC -O2 -o "$tmp/getppid_loop" "$here/getppid_loop.c" ||
    die "cannot compile getppid_loop.c"

now() { date +%s%N; }
median() { printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"; }

S='syscall::getppid:entry /pid == $target/ { @[timestamp] = count(); }'

# one N: sets w (dtrace wall ns), l (loop wall ns), rss (KB), keys
run_dtrace() {
	local n=$1 t0 t1
	t0=$(now)
	/usr/bin/time -f '%M' -o "$tmp/time" "$DTRACE" -q -x aggsize=256m \
	    -c "$tmp/getppid_loop $n" -n "$S" >"$tmp/out" 2>"$tmp/err"
	t1=$(now)
	w=$((t1 - t0))
	l=$(awk 'NF == 2 && $2 > 1000 { print $1; exit }' \
	    "$tmp/out")
	rss=$(tail -1 "$tmp/time")
	keys=$(grep -cE '^ +[0-9]+ +1$' "$tmp/out")
}

# the same under bpftrace: sets bw (wall ns), or empty
run_bpftrace() {
	local n=$1 t0 t1
	bw=
	command -v "$BPFTRACE" >/dev/null 2>&1 || return
	t0=$(now)
	BPFTRACE_MAX_MAP_KEYS=$((n + 1024)) "$BPFTRACE" -q -c \
	    "$tmp/getppid_loop $n" -e \
	    'tracepoint:syscalls:sys_enter_getppid /pid == cpid/ { @[nsecs] = count(); }' \
	    >"$tmp/bout" 2>&1 || return
	t1=$(now)
	bw=$((t1 - t0))
}

echo "== 1. N distinct keys printed at exit (median of $RUNS)"
declare -a ws ls
for ((i = 0; i < RUNS; i++)); do
	run_dtrace 1
	ws+=($w) ls+=(${l:-0})
done
base=$(($(median "${ws[@]}") - $(median "${ls[@]}")))
printf 'fixed part, consume(1): %d ms\n' $((base / 1000000))
printf '%9s %10s %10s %12s %12s %7s %9s %s\n' N "wall ms" "loop ms" \
    "consume ms" "ns/key" ratio "RSS MB" keys
first=
command -v "$BPFTRACE" >/dev/null 2>&1 ||
    note "no bpftrace: no peer column (install bpftrace for it)"
for n in $SIZES; do
	ws=() ls=() bws=()
	for ((i = 0; i < RUNS; i++)); do
		run_dtrace "$n"
		ws+=($w) ls+=(${l:-0})
		run_bpftrace "$n"
		[ -n "$bw" ] && bws+=($bw)
	done
	w=$(median "${ws[@]}") l=$(median "${ls[@]}")
	c=$((w - l))
	per=$(((c - base) / n))
	[ -z "$first" ] && first=$per
	[ "$keys" = "$n" ] && ok=OK || ok="MISMATCH ($keys)"
	printf '%9d %10d %10d %12d %12d %7.2f %9d %s\n' "$n" \
	    $((w / 1000000)) $((l / 1000000)) $((c / 1000000)) "$per" \
	    "$(echo "$per $first" | awk '{ printf("%.2f", $2 ? $1 / $2 : 0) }')" \
	    $((rss / 1024)) "$ok"
	if [ ${#bws[@]} -gt 0 ]; then
		printf '%9s bpftrace wall %d ms, dtrace/bpftrace %.2f\n' "" \
		    $(($(median "${bws[@]}") / 1000000)) \
		    "$(echo "$w $(median "${bws[@]}")" |
			awk '{ printf("%.2f", $1 / $2) }')"
	fi
done

echo
echo "== 2. printa() every second of a $NP-key aggregation, $SECS s"
P='syscall::getppid:entry /execname == "getppid_loop"/ { @[timestamp] = count(); }'
printf '#!/bin/sh\n"%s" %d >/dev/null\nsleep %d\n' "$tmp/getppid_loop" \
    "$NP" "$SECS" >"$tmp/work.sh"
chmod +x "$tmp/work.sh"
cpu() {
	/usr/bin/time -f '%U %S' -o "$tmp/time" "$DTRACE" -q \
	    -c "$tmp/work.sh" -n "$P $1" >"$tmp/out" 2>"$tmp/err"
	awk '{ printf("%d", ($1 + $2) * 1000) }' "$tmp/time"
}
with=$(cpu 'tick-1s { printa(@); }')
lines=$(grep -cE '^ +[0-9]+ +1$' "$tmp/out")
without=$(cpu 'tick-1s { }')
printf 'dtrace CPU: %d ms with printa(), %d ms without; %d ms per interval (%d lines printed in all)\n' \
    "$with" "$without" $(((with - without) / SECS)) "$lines"

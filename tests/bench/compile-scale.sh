#!/bin/bash
# SPDX-License-Identifier: MIT
# compile-scale.sh: how compile time grows with the number of clauses.
#
#   tests/bench/compile-scale.sh [path/to/dtrace]
#
# For N = 5,000 .. 100,000 it generates N clauses
# "syscall::read:entry /pid == I/ { @[I] = count(); }" and compiles them
# with -e (no tracing, any user), and prints the wall time, peak RSS,
# time per clause, and the ratio of the time to N=5,000's against the
# ratio of N (1.0 per N is linear: the peer is the linear extrapolation
# of the smallest run).  Then a 1 MB script of BEGIN clauses.  Other load
# on the machine shows in the figures; nothing passes or fails.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
dtrace=${1:-$top/build/cmd/dtrace}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run FILE: "cpu_ms rss_kb" of dtrace -e -Z -s FILE: user + system time,
# so that other load on a shared machine does not count
run() {
	/usr/bin/time -f '%U %S %M' -o "$tmp/time" "$dtrace" -e -Z -s "$1" \
	    >/dev/null 2>"$tmp/err" || { cat "$tmp/err"; return 1; }
	awk '{ printf "%d %d\n", ($1 + $2) * 1000, $3 }' "$tmp/time"
}

command -v /usr/bin/time >/dev/null ||
    { echo "needs GNU time (apt-get install time)"; exit 1; }
printf '%8s %10s %10s %12s %14s\n' clauses cpu_ms rss_kb us/clause \
    time/lin-peer
base=
for n in 5000 10000 20000 45000 70000 100000; do
	awk -v n="$n" 'BEGIN { for (i = 1; i <= n; i++)
	    printf "syscall::read:entry /pid == %d/ { @[%d] = count(); }\n",
	    i, i }' >"$tmp/s.d"
	read -r ms rss < <(run "$tmp/s.d") || exit 1
	[ -z "$base" ] && base=$ms
	awk -v n="$n" -v ms="$ms" -v rss="$rss" -v base="$base" 'BEGIN {
	    printf "%8d %10d %10s %12.1f %14.2f\n", n, ms, rss,
	    ms * 1000 / n, (ms / base) / (n / 5000) }'
done

# A 1 MB script: BEGIN clauses with a little arithmetic each.
awk 'BEGIN { for (i = 1; s < 1048576; i++) {
    l = sprintf("BEGIN /pid != %d/ { x = %d + %d * 2; }\n", i, i, i);
    s += length(l); printf "%s", l } }' >"$tmp/m.d"
read -r ms rss < <(run "$tmp/m.d") || exit 1
echo "1 MB script ($(wc -l <"$tmp/m.d") clauses): $ms ms CPU, $rss KB"

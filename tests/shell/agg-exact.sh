#!/bin/bash
# SPDX-License-Identifier: MIT
# agg-exact.sh: printa() then trunc() or clear() at a high rate, with
# probes firing as fast as two processes can call getppid(): every call
# is printed exactly once.  The counts printed in every interval, plus
# the aggregation drops dtrace reports, must add up to the calls the
# processes made -- none lost in the instant of a take, none counted
# twice.  For an aggregation without keys (a per-CPU array the engine
# never zeroes) and with keys (slots, taken by deleting their keys and
# waiting out the firings that found them), with count() and sum().
#
# Keyed aggregations run twice: in slots, and as a kernel without atomic
# fetch operations (before 5.12) keeps them, in two per-CPU hashes, one
# emptied while the firings go to the other (DTRACE_LINUX_NOFEATURE=
# agg_slots).
set -u
set -m	# background jobs take SIGINT as at a terminal

skip() { echo "$*"; exit 77; }

[ "$(id -u)" -eq 0 ] || skip "not root: the bpf engine needs root"
command -v cc >/dev/null || skip "needs a C compiler (cc)"
"$DTRACE" -q -x engine=bpf -n 'BEGIN { exit(0); }' >/dev/null 2>&1 ||
    skip "the bpf engine cannot run here"

tmp=$(mktemp -d)
trap 'kill -KILL $dpid 2>/dev/null; rm -rf "$tmp"' EXIT
dpid=
cc -O2 -o "$tmp/aggx-load" "$top_srcdir/tests/shell/data/getppid-load.c" ||
    exit 1

fail=0
# run NAME KEY ACTION FUNC PER: @KEY = FUNC, printa + ACTION every 50 ms;
# each call adds PER to the printed sum.
run() {
	local name=$1 key=$2 act=$3 func=$4 per=$5 calls printed drops
	"$DTRACE" -q -x engine=bpf -n '
	    BEGIN { printf("ready\n"); }
	    syscall::getppid:entry /execname == "aggx-load"/ { @'"$key"' = '"$func"'; }
	    tick-50ms { printa("C %@d\n", @); '"$act"'(@); }
	    END { printa("C %@d\n", @); }' >"$tmp/out" 2>"$tmp/err" &
	dpid=$!
	for _ in $(seq 100); do
		grep -q '^ready$' "$tmp/out" 2>/dev/null && break
		sleep 0.1
	done
	"$tmp/aggx-load" 1.5 >"$tmp/n1" &
	"$tmp/aggx-load" 1.5 >"$tmp/n2"
	wait %2 2>/dev/null
	sleep 0.3
	kill -INT $dpid
	wait $dpid
	calls=$(cat "$tmp/n1" "$tmp/n2" | awk '{ s += $1 } END { print s * '"$per"' }')
	printed=$(awk '/^C / { s += $2 } END { print s + 0 }' "$tmp/out")
	drops=$(awk '/^dtrace: [0-9]+ aggregation drops? on CPU/ { s += $2 }
	    END { print s + 0 }' "$tmp/err")
	if [ "$((printed + drops))" != "$calls" ]; then
		echo "FAIL: $name: printed $printed + $drops drops," \
		    "for $calls"
		sed 's/^/  stderr: /' "$tmp/err" | head -5
		fail=1
	else
		echo "ok: $name: printed $printed + $drops drops = $calls" \
		    "($(grep -c '^C ' "$tmp/out") lines)"
	fi
}

run "no keys, count(), trunc()" "" trunc "count()" 1
run "no keys, count(), clear()" "" clear "count()" 1
run "no keys, sum(2), clear()" "" clear "sum(2)" 2
run "by pid, count(), trunc()" "[pid]" trunc "count()" 1
run "by pid, count(), clear()" "[pid]" clear "count()" 1
run "by execname, sum(2), trunc()" "[execname]" trunc "sum(2)" 2
export DTRACE_LINUX_NOFEATURE=agg_slots
run "per-CPU hashes: by pid, count(), trunc()" "[pid]" trunc "count()" 1
run "per-CPU hashes: by pid, count(), clear()" "[pid]" clear "count()" 1
exit $fail

#!/bin/bash
# SPDX-License-Identifier: MIT
# drops-ratelimit.sh: drops are reported at most once per CPU per status
# interval, as DTrace does, with every drop counted.  A 4k buffer drained
# 10 times a second while a program's getppid() calls, as fast as it can
# make them, fill it overflows at every drain; in 3 seconds that is at
# most one line per CPU per second (plus the first report and the last),
# not one per drain -- and still some drops.
set -u

[ "$(id -u)" -eq 0 ] || { echo "needs root to load BPF programs"; exit 77; }
command -v cc >/dev/null || { echo "needs a C compiler (cc)"; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ncpu=$(getconf _NPROCESSORS_ONLN)

# A program that calls getppid() as fast as it can, under -c.
cat >"$tmp/spin.c" <<'C'
#include <unistd.h>
int main(void) { for (;;) (void) getppid(); }
C
cc -O1 -o "$tmp/spin" "$tmp/spin.c" || exit 1
"$DTRACE" -b 4k -x switchrate=10hz -q -c "$tmp/spin" \
    -n 'syscall::getppid:entry /pid == $target/ {
	trace(timestamp); trace(timestamp); trace(timestamp); }' \
    -n 'tick-3s { exit(0); }' >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -ne 0 ]; then
	echo "FAIL: dtrace exited $rc: $(head -3 "$tmp/err")"
	exit 1
fi
lines=$(grep -c ' drops\? on CPU ' "$tmp/err")
other=$(grep -vc ' drops\? on CPU ' "$tmp/err")
max=$((ncpu * 5))
echo "$lines drop lines on $ncpu CPUs in 3 s (at most $max)"
if [ "$lines" -eq 0 ]; then
	echo "FAIL: no drops reported from a 4k buffer"
	exit 1
fi
if [ "$lines" -gt "$max" ]; then
	echo "FAIL: drop reports not rate-limited"
	head -5 "$tmp/err"
	exit 1
fi
if [ "$other" -ne 0 ]; then
	echo "FAIL: unexpected messages: $(grep -v ' drops\? on CPU ' "$tmp/err" | head -3)"
	exit 1
fi
exit 0

#!/bin/bash
# SPDX-License-Identifier: MIT
# syscall-count.sh: syscall::getppid:entry counts exactly the calls a
# program makes -- each probe firing reaches its aggregation once, through
# the BPF engine and dtrace(1)'s whole run loop (BEGIN, ^C, END output).
set -u

[ "$(id -u)" -eq 0 ] || { echo "needs root to load BPF programs"; exit 77; }
command -v cc >/dev/null || { echo "needs a C compiler (cc)"; exit 77; }

tmp=$(mktemp -d)
trap 'kill "$dpid" 2>/dev/null; rm -rf "$tmp"' EXIT
cat >"$tmp/gpcall.c" <<'C'
#include <stdlib.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 0;

	for (long i = 0; i < n; i++)
		(void) getppid();
	return 0;
}
C
# A name of its own, so that another run of this test at the same time
# (another build tree's suite) is not counted too.
name=gp$$
name=${name:0:15}
cc -O2 -o "$tmp/$name" "$tmp/gpcall.c" || exit 1

n=54321
"$DTRACE" -q -n 'BEGIN { printf("ready\n"); }
    syscall::getppid:entry /execname == "'"$name"'"/ { @[execname] = count(); }' \
    >"$tmp/out" 2>"$tmp/err" &
dpid=$!
for _ in $(seq 100); do
	grep -q ready "$tmp/out" && break
	sleep 0.1
done
grep -q ready "$tmp/out" || { echo "dtrace did not start:"; cat "$tmp/err"; exit 1; }
"$tmp/$name" "$n"
"$tmp/$name" 7
kill -INT "$dpid"
wait "$dpid"
status=$?

want=$(printf 'ready\n\n  %-50s %16d' "$name" $((n + 7)))
got=$(cat "$tmp/out")
if [ "$status" -ne 0 ] || [ "$got" != "$want" ]; then
	printf 'exit status %d\n--- want\n%s\n--- got\n%s\n--- stderr\n' \
	    "$status" "$want" "$got"
	cat "$tmp/err"
	exit 1
fi
echo "counted $((n + 7)) getppid calls exactly"

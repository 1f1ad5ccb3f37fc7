#!/bin/bash
# SPDX-License-Identifier: MIT
# syscall-typed-args.sh: args[N] of syscall probes has the type of the
# tracepoint's field, in the BPF engine: openat's args[0] is an int, so
# AT_FDCWD reads -100 where the untyped arg0 reads the raw register
# (4294967196 on x86-64); args[1] is a const char * for copyinstr(); the return
# probe's args[0] is the long the call returns.
set -u

[ "$(id -u)" -eq 0 ] || { echo "needs root to load BPF programs"; exit 77; }
"$DTRACE" -l -n syscall::openat:entry >/dev/null 2>&1 ||
	{ echo "no syscall::openat:entry probe here"; exit 77; }

tmp=$(mktemp -d)
trap 'kill "$dpid" 2>/dev/null; rm -rf "$tmp"' EXIT
cp /bin/cat "$tmp/lvargs"
echo hello >"$tmp/marker"

"$DTRACE" -q -n 'BEGIN { printf("ready\n"); }
    syscall::openat:entry /execname == "lvargs"/ {
	printf("entry %d %d %s %d\n", args[0], arg0,
	    copyinstr((uintptr_t)args[1]), args[2] & 3);
	self->on = 1;
    }
    syscall::openat:return /self->on/ {
	printf("return %d\n", args[0] > 2 ? 1 : args[0]);
	self->on = 0;
    }
    syscall::exit_group:entry /execname == "lvargs"/ { exit(0); }' \
    >"$tmp/out" 2>"$tmp/err" &
dpid=$!
for _ in $(seq 100); do
	grep -q ready "$tmp/out" && break
	sleep 0.1
done
grep -q ready "$tmp/out" || { echo "dtrace did not start:"; cat "$tmp/err"; exit 1; }
"$tmp/lvargs" "$tmp/marker" >/dev/null
for _ in $(seq 100); do
	kill -0 "$dpid" 2>/dev/null || break
	sleep 0.1
done
kill -INT "$dpid" 2>/dev/null
wait "$dpid"
status=$?

# cat opens its libraries first; the marker is the open to check.  The
# raw register is the C library's: x86-64's passes the int as 32 bits
# (4294967196), arm64's glibc widens it to a long first (-100).
raw=4294967196
[ "$(uname -m)" = aarch64 ] && raw=-100
want=$(printf 'entry -100 %s %s 0\nreturn 1\n' "$raw" "$tmp/marker")
got=$(grep -A1 "^entry .* $tmp/marker " "$tmp/out")
if [ "$status" -ne 0 ] || [ "$got" != "$want" ]; then
	printf 'exit status %d\n--- want\n%s\n--- got\n%s\n--- stderr\n' \
	    "$status" "$want" "$(cat "$tmp/out")"
	cat "$tmp/err"
	exit 1
fi
echo "typed openat arguments read as their types"

#!/bin/bash
# SPDX-License-Identifier: MIT
# grab-refused.sh: a process dtrace may not trace is refused with one line
# that says why: -p of a process another tracer holds names that tracer
# (only one may hold it), and pid probes of another user's process, for a
# user without privilege, say permission is denied (not that the process
# has no such probes).
set -u

command -v cc >/dev/null || { echo "needs a C compiler (cc)"; exit 77; }

tmp=$(mktemp -d)
trap 'touch "$tmp/stop"; rm -rf "$tmp"' EXIT
cc -O1 -fno-inline -o "$tmp/t" "$top_srcdir/tests/shell/data/chaos-target.c" ||
	exit 1
. "$top_srcdir/tests/shell/data/as-nobody.sh"

# A process held by a dtrace of the ptrace engine, then -p again (as the
# caller: Yama may keep a user from tracing what is not a descendant).
dtrace=$top_builddir/cmd/dtrace
"$tmp/t" "$tmp/stop" >/dev/null &
t=$!
"$dtrace" -q -x engine=ptrace -p "$t" \
    -n 'pid$target::work:return { @ = count(); }' >"$tmp/d.out" 2>&1 &
d=$!
tracer=0
for _ in $(seq 100); do
	tracer=$(awk '/^TracerPid:/ { print $2 }' "/proc/$t/status")
	[ "$tracer" != 0 ] && break
	sleep 0.1
done
got=$("$dtrace" -q -x engine=ptrace -p "$t" -n 'BEGIN { exit(0); }' 2>&1
    echo "exit $?")
check "-p of a traced process" "dtrace: failed to grab pid $t: process is \
traced by pid $tracer
exit 1" "$got"
kill -TERM "$d" || cat "$tmp/d.out"
wait "$d"
touch "$tmp/stop"
wait "$t"

# Another user's process, without privilege (as root: nobody's view of a
# root process).
if $asroot; then
	sleep 30 &
	s=$!
	got=$(user "${dt[@]}" -q -n "pid$s::main:entry { exit(0); }" 2>&1
	    echo "exit $?")
	check "pid probes of another user's process" "dtrace: invalid probe \
specifier pid$s::main:entry { exit(0); }: failed to grab process $s: \
permission denied
exit 1" "$got"
	kill "$s"
else
	echo "note: as root, another user's process is tried too"
fi
exit $fail

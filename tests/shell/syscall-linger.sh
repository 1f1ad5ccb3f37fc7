#!/bin/bash
# SPDX-License-Identifier: MIT
# syscall-linger.sh: a descendant of a -c process that outlives dtrace
# (a daemon) makes its probed system calls as if never traced.
#
# On the ptrace engine the -c process carries a seccomp filter whose
# probed calls stop for the tracer, and which its children inherit; with
# no tracer they would fail with ENOSYS.  dtrace ends for the user as
# usual (output, exit status), and stays the daemon's tracer, out of
# sight, until the daemon ends (os/linux/ptrace/dt_ptrace_linger.c).
# Checked as a user without privilege, after dtrace ends by itself and
# after it is killed (SIGKILL to the dtrace started).
set -u

command -v cc >/dev/null || { echo "needs a C compiler (cc)"; exit 77; }

tmp=$(mktemp -d)
trap 'touch "$tmp"/go.*; rm -rf "$tmp"' EXIT
cc -O1 -o "$tmp/late-daemon" "$top_srcdir/tests/shell/data/late-daemon.c" ||
	exit 1
. "$top_srcdir/tests/shell/data/as-nobody.sh"
chmod 777 "$tmp"

# Wait up to 5 s for file $1 to hold a line; print it.
line_of() {
	for _ in $(seq 50); do
		[ -s "$1" ] && break
		sleep 0.1
	done
	cat "$1" 2>/dev/null
}

# Wait up to 5 s for no process to carry $1 in its command line.
none_left() {
	for _ in $(seq 50); do
		pgrep -f -- "$1" >/dev/null || return 0
		sleep 0.1
	done
	return 1
}

# dtrace ends when the -c process has: its output, its status.
got=$(user "${dt[@]}" -q -x engine=ptrace \
    -c "./late-daemon $tmp/go.1 $tmp/out.1" \
    -n 'syscall::write:entry { n++; } END { printf("end %d\n", n); }' \
    2>&1; echo "exit $?")
check "dtrace ends as the -c process does" "end 0

exit 0" "$got"
touch "$tmp/go.1"
check "the daemon's write after dtrace" "write ok" "$(line_of "$tmp/out.1")"
if none_left "$tmp/go.1"; then
	echo "ok: nothing left once the daemon has ended"
else
	check "nothing left once the daemon has ended" "" \
	    "$(pgrep -a -f -- "$tmp/go.1")"
fi

# dtrace killed: it ends as after SIGTERM, and the daemon runs on.
(cd "$tmp" && exec "${as_user[@]}" "${dt[@]}" -q -x engine=ptrace \
    -c "./late-daemon $tmp/go.2 $tmp/out.2 $tmp/hold" \
    -n 'syscall::write:entry { @ = count(); } tick-1s { printf("tick\n"); }' \
    >/dev/null 2>&1) &
d=$!
for _ in $(seq 50); do
	[ "$(pgrep -x -f -- "./late-daemon $tmp/go.2 $tmp/out.2 $tmp/hold" |
	    wc -l)" -eq 2 ] && break
	sleep 0.1
done
sleep 0.3
kill -KILL "$d" || check "dtrace killed" "killed" "ended before"
wait "$d" 2>/dev/null
touch "$tmp/go.2"
check "the daemon's write after dtrace is killed" "write ok" \
    "$(line_of "$tmp/out.2")"
none_left "$tmp/go.2" ||
	check "nothing left after the kill" "" "$(pgrep -a -f -- "$tmp/go.2")"
exit $fail

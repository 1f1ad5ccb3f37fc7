#!/bin/bash
# SPDX-License-Identifier: MIT
# ptrace-stop-calls.sh: the ptrace engine's tracer costs the traced
# program as few system calls of its own per stop as it can -- a stop is
# a wake of the tracer, its calls and the tracee's resumption, all on the
# program's time.  Under syscall::getppid:entry (a seccomp stop per call)
# the tracer sleeps in waitpid(), which returns with the stop, reads the
# registers and resumes the thread: three calls per stop (os/linux/
# ptrace/dt_ptrace.c, dt_pt_wait_stops()), where a timed wait for SIGCHLD
# before the waitpid() made it five.  The BPF engine counts the tracer's
# calls; the test checks the count of every call between the first and
# the last stop, per stop, and that the program's calls were all seen.
set -u

[ "$(id -u)" -eq 0 ] || { echo "needs root to load BPF programs"; exit 77; }
command -v cc >/dev/null || { echo "needs a C compiler (cc)"; exit 77; }

tmp=$(mktemp -d)
trap 'touch "$tmp/go"; kill $watch 2>/dev/null; rm -rf "$tmp"' EXIT
. "$top_srcdir/tests/shell/lib.sh"	# check()
cat >"$tmp/gate.c" <<'C'
#include <stdlib.h>
#include <unistd.h>

/* gate FILE N: once FILE exists, N getppid() calls. */
int
main(int argc, char **argv)
{
	int n = atoi(argv[2]);
	long s = 0;

	while (access(argv[1], F_OK) != 0)
		usleep(10000);
	for (int i = 0; i < n; i++)
		s += getppid();
	return s == 0;
}
C
cc -O1 -o "$tmp/gate" "$tmp/gate.c" || exit 1
dtrace=$top_builddir/cmd/dtrace
n=20000
watch=

"$dtrace" -q -x engine=ptrace -c "$tmp/gate $tmp/go $n" \
    -n 'syscall::getppid:entry { @ = count(); }
	END { printa("%@d\n", @); }' >"$tmp/traced" 2>&1 &
tracer=$!
# Every call of the tracer from when its program is under way to its end
# (its parent, where the build tree's dtrace is a libtool wrapper that
# waits for it, counts a call or two).
"$dtrace" -q -x aggsortkey -n '
	BEGIN { printf("ready\n"); }
	syscall:::entry /execname == "dtrace" && (pid == $1 || ppid == $1)/ {
		@[probefunc] = count();
	}
	END { printa("%s %@d\n", @); }' "$tracer" >"$tmp/calls" 2>&1 &
watch=$!
for ((i = 0; i < 300; i++)); do
	grep -q ready "$tmp/calls" && break
	sleep 0.1
done
grep -q ready "$tmp/calls" || { echo "FAIL: the watcher did not start"; cat "$tmp/calls"; exit 1; }
touch "$tmp/go"
wait $tracer
check "the program's calls, all counted" "$n" "$(grep . "$tmp/traced")"
kill -INT $watch
wait $watch
watch=
cat "$tmp/calls"
# The start-up's and exit's own calls are a few hundred, whatever n is;
# each wait's deadline adds a few more, some sixty times a second: 3.5
# leaves room for a slow machine, and the old way's 4 or 5 still fails.
total=$(awk 'NF == 2 && $2 ~ /^[0-9]+$/ { s += $2 } END { print s + 0 }' \
    "$tmp/calls")
perstop=$(awk -v t="$total" -v n="$n" 'BEGIN { printf("%.2f", t / n) }')
echo "tracer's system calls per stop: $perstop ($total for $n stops)"
check "at most 3.5 system calls per stop" yes \
    "$(awk -v t="$total" -v n="$n" 'BEGIN { print t <= 3.5 * n ? "yes" : "no" }')"
exit ${fail:-0}

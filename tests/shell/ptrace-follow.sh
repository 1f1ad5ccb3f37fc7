#!/bin/bash
# SPDX-License-Identifier: MIT
# ptrace-follow.sh: the ptrace engine follows the processes it traces
# (os/linux/ptrace/dt_ptrace_sites.c): pid probes matched again after
# exec and dlopen, -x followfork through fork and vfork, and the proc
# probes of signals discarded and cleared.  As root the test drops to
# user nobody (setpriv), as ptrace-engine.sh does.  Checked, with exact
# counts:
#  - followfork: 10 fork children, each calling bench_fn M times;
#  - without followfork, an exec of the -c process itself: the probes of
#    the new executable and of its libraries (puts) fire;
#  - followfork: fork and vfork children exec'ing a probed program; a
#    vfork child's system calls and process events fire, with or without
#    followfork, its pid probes only with followfork;
#  - a library dlopen()ed, dlclose()d and dlopen()ed again, in the -c
#    process and in a fork child (followfork): every call counted;
#  - proc:::signal-discard (an ignored signal) and signal-clear (a signal
#    taken by sigwait()) with their arguments.
set -u

command -v cc >/dev/null || { echo "needs a C compiler (cc)"; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
src=$top_srcdir/tests/shell/data/ptrace-follow.c
cc -O1 -o "$tmp/f" "$src" -ldl &&
    cc -O1 -shared -fPIC -DLIB -o "$tmp/libf.so" "$src" || exit 1

. "$top_srcdir/tests/shell/data/as-nobody.sh"
run() { user "${dt[@]}" -x engine=ptrace "$@" 2>&1 | grep -v '^$'; }

m=1000
got=$(run -q -x followfork -c "./f fork 10 $m" \
    -n 'pid$target::bench_fn:entry { @ = count(); }
    END { printa("%@d\n", @); }')
check "followfork: 10 fork children x $m calls" $((10 * m)) "$got"

# A predicate keeps bench_fn on a breakpoint: a counting site's calls
# just before an exec go with the old image's counter (docs/ptrace-
# engine.md, "Counting sites"), and arm64 patches bench_fn so.
got=$(run -q -c "./f exec ./f 7" -n '
    pid$target::bench_fn:entry /1/ { @b = count(); }
    pid$target:libc.so.6:puts:entry { @p = count(); }
    END { printa("bench_fn %@d\n", @b); printa("puts %@d\n", @p); }')
check "exec of the -c process: probes of the new image" "ok
bench_fn 8
puts 1" "$got"

clauses='pid$target::bench_fn:entry { @b[pid == $target] = count(); }
    pid$target:libc.so.6:puts:entry { @p = count(); }
    syscall::execve:entry /pid != $target/ { @e = count(); }
    proc:::start, proc:::exit /pid != $target/ { @[probename] = count(); }
    END { printa("bench_fn %d %@d\n", @b); printa("puts %@d\n", @p);
	printa("execve %@d\n", @e); printa("%s %@d\n", @); }'
for how in spawn vfork; do
	got=$(run -q -x followfork -c "./f $how 3 ./f 7" -n "$clauses")
	check "followfork: $how children exec a probed program" "ok
ok
ok
bench_fn 1 1
bench_fn 0 21
puts 3
execve 3
exit 3
start 3" "$got"
done
got=$(run -q -c "./f vfork 3 ./f 7" -n "$clauses")
check "vfork children without followfork: events, no pid probes" "ok
ok
ok
bench_fn 1 1
execve 3
exit 3
start 3" "$got"

lib='pid$target:libf.so:lib_fn:entry { @[pid == $target] = count(); }
    END { printa("lib_fn %d %@d\n", @); }'
got=$(run -q -Z -c "./f dlopen ./libf.so 5" -n "$lib")
check "dlopen, dlclose, dlopen: every call" "lib 15
lib 15
lib_fn 1 10" "$got"
got=$(run -q -Z -x followfork -c "./f forkdl ./libf.so 5" -n "$lib")
check "the same in a fork child" "lib 15
lib 15
lib_fn 0 10" "$got"

got=$(run -q -c "./f signals" -n '
    proc:::signal-discard /pid == $target/ { printf("discard %d %d %d\n",
	args[2], args[1]->pr_pid == $target, args[0]->pr_lwpid == tid); }
    proc:::signal-clear /pid == $target/ { printf("clear %d\n", args[0]); }')
check "signal-discard, signal-clear" "sigwait 10
discard 12 1 1
clear 10" "$got"

exit $fail

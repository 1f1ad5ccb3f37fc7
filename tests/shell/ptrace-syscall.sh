#!/bin/bash
# SPDX-License-Identifier: MIT
# ptrace-syscall.sh: the syscall and proc providers and destructive
# actions on the ptrace engine, for a user without privilege
# (os/linux/ptrace/dt_ptrace_sys.c).  As root the test drops to user
# nobody (setpriv), as ptrace-engine.sh does.  Checked:
#  - syscall:::entry counts every call of a -c program, its threads and
#    its forked child exactly as strace -c -f does (the program is linked
#    statically, so that no call precedes its entry point, where dtrace
#    starts it; strace also counts the execve that dtrace -c makes before
#    tracing starts);
#  - return probes: arg1 and errno;
#  - proc probes of fork, exec (failed, then done), threads and exit (and
#    the parent's SIGCHLD, ignored by default: signal-discard);
#  - -p (PTRACE_SYSCALL stepping): counted, and the process runs on
#    untraced after dtrace ends on SIGTERM or is killed with SIGKILL;
#  - raise(), stop() and copyoutstr() on the traced process (-w);
#  - syscall probes without -c or -p: one error line.
set -u

command -v cc >/dev/null || { echo "needs a C compiler (cc)"; exit 77; }

tmp=$(mktemp -d)
trap 'touch "$tmp/stop" "$tmp/stop2"; rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
src=$top_srcdir/tests/shell/data/ptrace-sys.c
cc -O1 -pthread -o "$tmp/t" "$src" || exit 1
static=true
cc -O1 -static -pthread -o "$tmp/ts" "$src" 2>/dev/null || static=false

. "$top_srcdir/tests/shell/data/as-nobody.sh"
run() { user "${dt[@]}" -x engine=ptrace "$@"; }

# Every call, as strace -c -f counts them.
if ! $static; then
	echo "skipped the comparison with strace: no static C library"
elif ! command -v strace >/dev/null; then
	echo "skipped the comparison with strace: strace is not installed"
else
	(cd "$tmp" && strace -f -c -o "$tmp/strace.out" ./ts calls 1000) \
	    >/dev/null
	# "% time seconds usecs/call calls [errors] syscall".  strace counts
	# a call as it returns, so never exit and exit_group; futex is left
	# out: pthread_join() waits only if the thread has not exited yet.
	want=$(awk '$NF ~ /^[a-z_0-9]+$/ && $NF != "total" && $NF != "syscall" &&
	    $NF != "execve" && $NF != "futex" { print $NF, $4 }' \
	    "$tmp/strace.out" | sort)
	got=$(run -q -c "./ts calls 1000" -n 'syscall:::entry
	    /probefunc != "futex" && probefunc != "exit" &&
	    probefunc != "exit_group"/ { @[probefunc] = count(); }
	    END { printa("%s %@d\n", @); }' 2>"$tmp/err" | grep . | sort)
	check "syscall:::entry counts as strace -c -f" "$want" "$got"
fi

# Return probes: the value and errno; entry arguments (arg0 of write).
got=$(run -q -c "./t calls 3" -n '
    syscall::openat:return /pid == $target/ { printf("openat %d %d\n",
	(int)arg1 >= 0, errno); }
    syscall::write:entry /pid == $target/ { @w[arg2] = count(); }
    syscall::getppid:entry /pid == $target/ { @g = count(); }
    END { printa("write %d %@d\n", @w); printa("getppid %@d\n", @g); }' \
    2>&1 | grep -E '^(openat|write|getppid) ' | sort)
# (Sorted: records of different CPUs' buffers come in CPU order.)
check "return values, errno, arguments" "getppid 103
openat 0 2
openat 1 0
write 1 5" "$got"

# proc probes: the child's life, then the threads'.  Lines are numbered
# in firing order and sorted by it: records of different CPUs' buffers
# are printed CPU by CPU, and dtrace may change CPUs between firings.
got=$(run -q -c "./t exec" -n '
    proc::: { printf("%d %d %s %s\n", ++n, pid == $target, probename,
	execname); }
    proc:::create { printf("%d  child %d %d\n", ++n,
	args[0]->pr_pid > $target, args[0]->pr_ppid == $target); }
    proc:::exec { printf("%d  path %s\n", ++n, stringof(args[0])); }
    proc:::exec-failure, proc:::exit { printf("%d  arg %d\n", ++n,
	args[0]); }' 2>&1 | grep '^[0-9]' | sort -n | sed 's/^[0-9]* //')
check "proc: fork, exec, exit" "1 create t
 child 1 1
0 start t
0 exec t
 path /nonexistent
0 exec-failure t
 arg 2
0 exec t
 path /bin/true
0 exec-success true
0 exit true
 arg 1
1 signal-discard t
1 exit t
 arg 1" "$got"
got=$(run -q -c "./t calls 1" -n '
    proc:::lwp-create { printf("%d %s %d %d\n", ++n, probename,
	args[0]->pr_lwpid > pid, args[1]->pr_pid == pid); }
    proc:::lwp-start, proc:::lwp-exit { printf("%d %s %d\n", ++n,
	probename, tid != pid); }' 2>&1 | grep '^[0-9]* lwp' | sort -n |
    sed 's/^[0-9]* //')
check "proc: threads" "lwp-create 1 1
lwp-start 1
lwp-exit 1" "$got"

# -p: every call stops (PTRACE_SYSCALL); after SIGTERM, and after SIGKILL
# (the kernel detaches), the process runs on and ends normally.
for sig in TERM KILL; do
	rm -f "$tmp/stop"
	(cd "$tmp" && exec "${as_user[@]}" ./t wait "$tmp/stop") &
	tpid=$!
	sleep 0.2
	(cd "$tmp" && exec "${as_user[@]}" "${dt[@]}" -q -x engine=ptrace \
	    -p "$tpid" -n 'syscall::getppid:entry { @ = count(); }' \
	    >"$tmp/p.out" 2>&1) &
	dpid=$!
	# Until dtrace traces it (seconds on a slow or emulated machine),
	# then a while of calls.
	for _ in $(seq 300); do
		grep -q '^TracerPid:[[:space:]]*[1-9]' "/proc/$tpid/status" \
		    2>/dev/null && break
		sleep 0.1
	done
	sleep 0.5
	kill -"$sig" "$dpid"
	wait "$dpid" 2>/dev/null
	if [ "$sig" = TERM ]; then
		n=$(grep -o '[0-9][0-9]*' "$tmp/p.out" | head -n 1)
		[ "${n:-0}" -gt 10 ] ||
			check "-p: calls counted" "> 10" "$(cat "$tmp/p.out")"
	fi
	sleep 0.2
	check "-p: untraced after SIG$sig" "TracerPid:	0" \
	    "$(grep TracerPid "/proc/$tpid/status")"
	touch "$tmp/stop"
	wait "$tpid"
	check "-p: exit status after SIG$sig" 0 "$?"
done

# A -c child under a seccomp filter dies with dtrace (PTRACE_O_EXITKILL):
# its probed calls would fail with ENOSYS without a tracer.
exitkill_check 'syscall::getppid:entry { @ = count(); }'

# Destructive actions on the traced process.
got=$(run -qw -c "./t signal 50" -n 'syscall::getppid:entry /++n <= 3/ {
    raise(10); }' 2>&1 | grep handled)
check "raise(SIGUSR1) three times" "handled 3" "$got"
got=$(run -qw -c "./t patch" -n 'syscall::write:entry /(int)arg0 == -1/ {
    copyoutstr("patched", arg1, 8); }' 2>&1 | grep -v '^dtrace:')
check "copyoutstr() into the process" "patched" "$(echo "$got" | grep .)"
got=$(run -q -c "./t patch" -n 'syscall::write:entry { raise(10); }' 2>&1)
check "raise() without -w" "dtrace: could not enable tracing: Destructive actions not allowed" "$got"
rm -f "$tmp/stop"
(cd "$tmp" && exec "${as_user[@]}" ./t wait "$tmp/stop") &
tpid=$!
sleep 0.2
run -qw -p "$tpid" -n 'syscall::getppid:entry { stop(); exit(0); }' \
    >/dev/null 2>&1
sleep 0.2
check "stop(): the process is stopped" "T" \
    "$(sed -n 's/^State:[[:space:]]*\(.\).*/\1/p' "/proc/$tpid/status")"
touch "$tmp/stop"
kill -CONT "$tpid"
wait "$tpid"
check "stop(): runs on after SIGCONT" 0 "$?"

# Without a process, nothing to trace.
got=$(run -q -n 'syscall::getppid:entry { exit(0); }' 2>&1)
check "syscall probes without -c or -p" "dtrace: could not enable tracing: syscall probes on the ptrace engine see only the processes of -c and -p, and none is given" "$got"

exit $fail

#!/bin/bash
# SPDX-License-Identifier: MIT
# proc-provider.sh: the proc provider -- its probes and argument types as
# dtrace -l and -lv list them, and every probe's firings in a workload
# whose process events are known exactly (tests/shell/data/proc-work.c):
# forks, an exec with known arguments, a failing exec, known exit
# statuses, a kill, threads, a handled, a waited-for and an ignored
# signal.  Also the must-show one-liner: exec-success printing
# curpsinfo->pr_psargs.
. "$top_srcdir/tests/shell/data/kprov-common.sh"

# 1. Listing: every probe name, each with the events it maps to.
"$DTRACE" -l -P proc >"$tmp/list" 2>"$tmp/err" || fail "dtrace -l -P proc"
names="create exec exec-success exec-failure exit lwp-create lwp-exit
signal-send signal-discard signal-handle signal-clear"
declared sched_exit_tp && names="$names start lwp-start"
for n in $names; do
	awk -v n="$n" '$2 == "proc" && $3 == "vmlinux" && $NF == n' \
	    "$tmp/list" | grep -q . || fail "dtrace -l -P proc: no $n"
done
awk '$2 == "proc" && $NF == "exec-failure" { print $4 }' "$tmp/list" |
    sort | tr '\n' ' ' >"$tmp/ef"
# x86-64: a failed execve's exec and exec-failure are on raw sys_exit.
case $(cat "$tmp/ef") in
"sys_exit sys_exit_execveat " | "sys_exit_execve sys_exit_execveat ") ;;
*) fail "exec-failure on: $(cat "$tmp/ef")" ;;
esac

# 2. DTrace's argument types.
"$DTRACE" -lv -n proc:::create -n proc:::exec -n proc:::exec-failure \
    -n proc:::exit -n proc:::lwp-create -n proc:::signal-send \
    -n proc:::signal-handle -n proc:::signal-clear 2>"$tmp/err" |
    awk '$2 == "proc" { p = !seen[$NF]++; if (p) print $NF; next }
	p && /args\[/' >"$tmp/lv"
cat >"$tmp/lv.want" <<'EOF'
create
		args[0]: psinfo_t *
exec
		args[0]: string
exec-failure
		args[0]: int
exit
		args[0]: int
lwp-create
		args[0]: lwpsinfo_t *
		args[1]: psinfo_t *
signal-send
		args[0]: lwpsinfo_t *
		args[1]: psinfo_t *
		args[2]: int
signal-handle
		args[0]: int
		args[1]: siginfo_t *
		args[2]: void *
signal-clear
		args[0]: int
EOF
diff -u "$tmp/lv.want" "$tmp/lv" >"$tmp/diff" || {
	cat "$tmp/diff"
	fail "dtrace -lv -P proc: unexpected argument types"
}

# 3. The workload, every event of it and its children, exactly.
cc -O1 -pthread -o "$tmp/proc-work" \
    "$top_srcdir/tests/shell/data/proc-work.c" || exit 1
missing=/nonexistent/dtrace-proc-test
cat >"$tmp/proc.d" <<'EOF'
proc:::create /progenyof($target)/
{
	printf("create %d\n", args[0]->pr_ppid == pid);
}
proc:::lwp-create /progenyof($target)/
{
	printf("lwp-create %s\n", args[0]->pr_lwpid == args[1]->pr_pid ?
	    "process" : "thread");
}
proc:::exec /progenyof($target)/ { printf("exec %s\n", args[0]); }
proc:::exec-success /progenyof($target)/
{
	printf("exec-success %s %s\n", execname, curpsinfo->pr_psargs);
}
proc:::exec-failure /progenyof($target)/
{
	printf("exec-failure %d\n", args[0]);
}
proc:::exit /progenyof($target)/ { printf("exit %d\n", args[0]); }
proc:::lwp-exit /progenyof($target)/ { printf("lwp-exit\n"); }
proc:::start /progenyof($target)/
{
	printf("start %d\n", curpsinfo->pr_ppid == $target);
}
proc:::lwp-start /progenyof($target)/ { printf("lwp-start\n"); }
proc:::signal-send /progenyof($target) && args[2] != SIGCHLD/
{
	printf("signal-send %d %d\n", args[2], args[1]->pr_pid == pid);
}
proc:::signal-discard /progenyof($target) && args[2] != SIGCHLD/
{
	printf("signal-discard %d\n", args[2]);
}
proc:::signal-handle /pid == $target && args[0] != SIGCHLD/
{
	printf("signal-handle %d %d 0x%x\n", args[0], args[1]->si_signo,
	    (uint64_t)args[2]);
}
/*
 * The child killed by SIGTERM handles SIGTERM by its default action,
 * although the kernel makes it SIGKILL for the child on the way.
 */
proc:::signal-handle /progenyof($target) && pid != $target &&
    args[0] != SIGCHLD/
{
	printf("signal-handle child %d 0x%x\n", args[0], (uint64_t)args[2]);
}
proc:::signal-clear /pid == $target/
{
	printf("signal-clear %d\n", args[0]);
}
EOF
# start and lwp-start need the kernel's sched_exit_tp (6.1 has none).
have_start=true
declared sched_exit_tp || {
	have_start=false
	sed -i '/^proc:::start /,/^}/d; /^proc:::lwp-start /d' "$tmp/proc.d"
	echo "note: no proc:::start or lwp-start here (the kernel has no" \
	    "sched_exit_tp tracepoint); their firings are left out"
}
"$DTRACE" -q "${lib[@]}" -s "$tmp/proc.d" \
    -c "$tmp/proc-work proc $missing" >"$tmp/out" 2>"$tmp/err" ||
    fail "dtrace -s proc.d -c proc-work: exit $?"
handler=$(sed -n 's/^handler //p' "$tmp/out")
[ -n "$handler" ] || fail "no handler address in the output"
# Three plain children, the exec of /bin/true, the failed exec and the
# killed child: six processes with six first threads (lwp-create
# "process", start), plus two threads; nine threads end (the target's
# included), seven processes: six by exit (CLD_EXITED 1), one by SIGTERM
# (CLD_KILLED 2), which it handles by its default action (handler 0).
# Solaris lists lwp-start after start for a process.
{
	for _ in 1 2 3 4 5 6; do
		echo "create 1"
		echo "lwp-create process"
		echo "start 1"
		echo "exit 1"
	done
	for _ in 1 2 3 4 5 6 7 8; do echo "lwp-start"; done
	for _ in 1 2 3 4 5 6 7 8 9; do echo "lwp-exit"; done
	echo "lwp-create thread"
	echo "lwp-create thread"
	echo "exit 2"
	echo "exec /bin/true"
	echo "exec-success true true alpha beta"
	echo "exec-failure 2"
	echo "signal-send 15 0"
	echo "signal-send 12 1"
	echo "signal-send 10 1"
	echo "signal-discard 23"
	echo "signal-handle 12 12 $handler"
	echo "signal-handle child 15 0x0"
	echo "signal-clear 10"
	echo "handler $handler"
} | { if $have_start; then cat; else grep -v '^start \|^lwp-start$'; fi; } |
    sort >"$tmp/want"
# As in DTrace, every attempt fires exec, the failed exec of a missing
# file too: at the system call tracepoints, or (x86-64) as a failed
# execve returns, where sched_prepare_exec, which fires once the program
# is found, is the preferred mechanism.
awk '$2 == "proc" && $NF == "exec" { print $4 }' "$tmp/list" |
    grep -q '^sys_enter_execve$\|^sys_exit$' && {
	echo "exec $missing" >>"$tmp/want"
	sort -o "$tmp/want" "$tmp/want"
}
sed '/^$/d' "$tmp/out" | sort >"$tmp/got"
diff -u "$tmp/want" "$tmp/got" >"$tmp/diff" || {
	cat "$tmp/diff"
	fail "proc firings differ"
}

# 4. The must-show: command lines of programs started meanwhile.
printf '/bin/echo one two >/dev/null\n/bin/true three\n' >"$tmp/two.sh"
"$DTRACE" -q "${lib[@]}" -n '
proc:::exec-success /progenyof($target)/ { trace(curpsinfo->pr_psargs); }' \
    -c "/bin/sh $tmp/two.sh" \
    >"$tmp/out" 2>"$tmp/err" || fail "exec-success one-liner: exit $?"
printf '/bin/echo one two/bin/true three' >"$tmp/want"
tr -d '\n' <"$tmp/out" | sed 's/  *$//' >"$tmp/got"
cmp -s "$tmp/want" "$tmp/got" || {
	cat "$tmp/out"
	fail "exec-success: unexpected command lines"
}
echo "proc: $(($(wc -l <"$tmp/list") - 1)) probes; every firing of the workload as expected"

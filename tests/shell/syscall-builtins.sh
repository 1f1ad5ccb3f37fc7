#!/bin/bash
# SPDX-License-Identifier: MIT
# syscall-builtins.sh: the probe's names, arguments and errno reach the
# clauses of syscall probes on the BPF engine, both through a program of
# its own per probe and through the one raw_syscalls program that serves
# many (syscall:::entry), including clauses that read none of them and
# programs where no clause does.
set -u

[ "$(id -u)" -eq 0 ] || { echo "needs root to load BPF programs"; exit 77; }
command -v cc >/dev/null || { echo "needs a C compiler (cc)"; exit 77; }

tmp=$(mktemp -d)
trap 'kill "$dpid" 2>/dev/null; rm -rf "$tmp"' EXIT
cat >"$tmp/sysbi.c" <<'C'
#include <unistd.h>
#include <sys/syscall.h>

int
main(void)
{
	(void) syscall(SYS_getppid);
	(void) syscall(SYS_close, 12345);
	(void) syscall(SYS_dup, 54321);
	return 0;
}
C
cc -O2 -o "$tmp/sysbi" "$tmp/sysbi.c" || exit 1

# run NAME SCRIPT: trace one run of sysbi with SCRIPT; output to NAME.
run() {
	"$DTRACE" -q -n "BEGIN { printf(\"ready\n\"); } $2" \
	    >"$tmp/$1" 2>"$tmp/$1.err" &
	dpid=$!
	for _ in $(seq 200); do
		grep -q ready "$tmp/$1" && break
		sleep 0.1
	done
	grep -q ready "$tmp/$1" ||
	    { echo "dtrace did not start:"; cat "$tmp/$1.err"; exit 1; }
	"$tmp/sysbi"
	kill -INT "$dpid"
	wait "$dpid" || { echo "dtrace failed:"; cat "$tmp/$1.err"; exit 1; }
	dpid=
	sed -i '/^ready$/d; /^$/d' "$tmp/$1"
}

P='/execname == "sysbi"/'
fail=0
# check NAME WANT: NAME's output, sorted, blanks squeezed, must be WANT.
check() {
	local got
	got=$(sort "$tmp/$1" | tr -s ' ')
	if [ "$got" != "$2" ]; then
		printf -- '--- %s: want\n%s\n--- got\n%s\n' "$1" "$2" "$got"
		fail=1
	fi
}

# A program per probe: one clause reads arguments, one does not.
run few "syscall::close:entry $P { printf(\"%s:%s:%s:%s %d\n\",
    probeprov, probemod, probefunc, probename, arg0); }
    syscall::close:return $P { printf(\"%s %d %d\n\", probefunc, errno,
    arg0); }
    syscall::getppid:entry $P { @[probename, probefunc] = count(); }"
sed -i '/^close 0 0$/d; /:close:entry 3$/d' "$tmp/few"	# the loader's
# A failed call: arg0 is -1 and errno says why, as in DTrace.
check few " entry getppid 1
close 9 -1
syscall:vmlinux:close:entry 12345"

# No clause reads arguments; errno still comes from the return value.
run noargs "syscall::dup:return,syscall::close:return
    /execname == \"sysbi\" && errno != 0/ {
    printf(\"%s:%s %d\n\", probefunc, probename, errno); }"
check noargs "close:return 9
dup:return 9"

# The raw_syscalls program: probefunc from its table.
run many "syscall:::entry /execname == \"sysbi\" &&
    (arg0 == 12345 || arg0 == 54321)/ {
    printf(\"%s:%s %d\n\", probefunc, probename, arg0); }
    syscall:::entry $P { @n[probeprov, probename] = count(); }"
sed -i '/^  syscall  *entry  /d' "$tmp/many"	# counted: not asserted
check many "close:entry 12345
dup:entry 54321"

[ $fail = 0 ] || exit 1
echo "probe names, arguments and errno as expected"

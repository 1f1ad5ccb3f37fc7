#!/bin/bash
# SPDX-License-Identifier: MIT
# engine-choice.sh: which engine runs a program nobody forced one on.  A
# program whose probes dtrace fires itself (BEGIN, tick-N) runs on the
# interpreter -- unless a clause reads the kernel's view of the thread
# (curthread, or curpsinfo translated from it), which only the in-kernel
# engine can give: then, when BPF is there, BEGIN runs in the kernel as
# DTrace's does, in dtrace's own thread.  Without BPF that read is an
# invalid-address error, as before.
set -u

[ "$(id -u)" -eq 0 ] || { echo "needs root (the BPF engine)"; exit 77; }
[ -r /sys/kernel/btf/vmlinux ] || { echo "needs kernel BTF"; exit 77; }

fail=0
check() {
	local what=$1 want=$2 got=$3
	if [ "$got" != "$want" ]; then
		printf 'FAIL: %s: want "%s", got "%s"\n' "$what" "$want" "$got"
		fail=1
	fi
}

got=$("$DTRACE" -q -n 'BEGIN { printf("%s %d %d\n",
    stringof(curthread->comm), curthread->tgid == pid,
    curpsinfo->pr_pid == pid); exit(0); }' 2>&1)
check "curthread at BEGIN" "dtrace 1 1" "$got"

got=$("$DTRACE" -q -n 'tick-1ms { printf("%d\n",
    curthread->pid == tid); exit(0); }' 2>&1)
check "curthread at a tick" "1" "$got"

# A program that reads no kernel memory stays on the interpreter: its
# BEGIN runs in dtrace's process, where no kernel map is needed, and
# says nothing about engines.
got=$("$DTRACE" -q -n 'BEGIN { printf("%d\n", pid == $pid); exit(0); }' 2>&1)
check "plain BEGIN" "1" "$got"

# Forced onto the interpreter, the read has no kernel to read from.
got=$(timeout 20 "$DTRACE" -q -x engine=interp -n 'BEGIN {
    trace(curthread->pid); } BEGIN { exit(0); }' 2>&1 | head -n 1)
case $got in
"dtrace: error on enabled probe ID 1 (ID 1: dtrace:::BEGIN): invalid address"*) ;;
*) printf 'FAIL: forced interp: got "%s"\n' "$got"; fail=1 ;;
esac
exit $fail

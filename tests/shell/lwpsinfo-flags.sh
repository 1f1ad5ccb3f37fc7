#!/bin/bash
# SPDX-License-Identifier: MIT
# lwpsinfo-flags.sh: what psinfo.d translates of a Linux task that
# DTrace's psinfo_t and lwpsinfo_t have: pr_flag's PR_* bits (asleep in
# a system call, a kernel thread, traced by ptrace), pr_clname (the
# scheduling class, as ps(1) names it) and pr_ttydev (the controlling
# terminal's device, -1 for none).
set -u

if [ "$(id -u)" -ne 0 ]; then
	echo "not root: curlwpsinfo reads kernel memory on the bpf engine only"
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rc=0

check() {	# check WHAT WANT GOT
	if [ "$2" != "$3" ]; then
		echo "FAIL: $1: want [$2], got [$3]"
		rc=1
	fi
}

# The flags and class of the traced command's sleep(1) where it goes to
# sleep in clock_nanosleep (the thread is leaving the CPU to sleep
# interruptibly); the command is the operands.
asleep() {
	"$DTRACE" -q -x engine=bpf -c "$*" -n '
	    syscall::clock_nanosleep:entry
	    /progenyof($target) && execname == "sleep"/ { self->in = 1; }
	    sched:::off-cpu /self->in/ {
		this->f = curlwpsinfo->pr_flag;
		printf("%d %d %d %c %s\n", (this->f & PR_ASLEEP) != 0,
		    (this->f & (PR_STOPPED | PR_ISTOP | PR_ISSYS |
		    PR_IDLE)) != 0, (this->f & PR_PTRACE) != 0,
		    curlwpsinfo->pr_sname, curlwpsinfo->pr_clname);
		exit(0);
	    }' 2>&1
}

check "sleep" "1 0 0 S TS" "$(asleep sleep 0.5)"
check "SCHED_BATCH" "1 0 0 S B" "$(asleep chrt -b 0 sleep 0.5)"
check "SCHED_IDLE" "1 0 0 S IDL" "$(asleep chrt -i 0 sleep 0.5)"
check "SCHED_FIFO" "1 0 0 S FF" "$(asleep chrt -f 1 sleep 0.5)"
check "SCHED_RR" "1 0 0 S RR" "$(asleep chrt -r 1 sleep 0.5)"
if command -v strace >/dev/null; then
	check "under strace" "1 0 1 S TS" \
	    "$(asleep strace -o /dev/null sleep 0.5 | grep .)"
else
	echo "no strace: PR_PTRACE not tested"
fi

# Kernel threads (no mm, so pr_size 0) have PR_ISSYS.
got=$("$DTRACE" -q -x engine=bpf -n '
    sched:::on-cpu /curlwpsinfo->pr_flag & PR_ISSYS/ {
	printf("%d\n", curpsinfo->pr_size == 0); exit(0); }
    tick-5s { printf("no kernel thread ran\n"); exit(1); }' 2>&1)
check "kernel thread" "1" "$got"

# pr_ttydev: none for a process without a controlling terminal; in a
# pseudo-terminal, its device (getmajor/getminor of the kernel's dev_t).
prog='BEGIN { printf("%x %x\n", getmajor(curpsinfo->pr_ttydev),
    getminor(curpsinfo->pr_ttydev)); exit(0); }'
got=$(setsid "$DTRACE" -q -x engine=bpf -n "$prog" </dev/null 2>&1)
check "no terminal" "fff fffff" "$got"
if command -v script >/dev/null; then
	cat >"$tmp/tty.sh" <<EOT
stat -L -c '%t %T' /proc/self/fd/0 >"$tmp/want"
"$DTRACE" -q -x engine=bpf -n '$prog' >"$tmp/got" 2>&1
EOT
	script -qec "sh $tmp/tty.sh" /dev/null >/dev/null 2>&1 </dev/null
	check "pseudo-terminal" "$(cat "$tmp/want")" "$(tr -d '\r' <"$tmp/got")"
else
	echo "no script(1): pr_ttydev of a terminal not tested"
fi
exit $rc

#!/bin/bash
# SPDX-License-Identifier: MIT
# unprivileged.sh: dtrace(1) for a user who may not load BPF programs.
#
# Kernel probes get DTrace's "does not match any probes" error plus one
# line naming what is missing (syscall probes need -c or -p, whose
# processes the ptrace engine traces); a script that needs no kernel
# probe runs on the interpreter; profile-N, which samples every CPU, is
# refused in one line.  As root, the test drops to user nobody with setpriv.
set -u

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ "$(id -u)" -eq 0 ]; then
	command -v setpriv >/dev/null || {
		echo "needs setpriv (util-linux) to drop privileges"
		exit 77
	}
	# The build tree may not be readable by nobody: copy what runs.
	chmod 755 "$tmp"
	cp "$top_builddir/cmd/.libs/dtrace" "$tmp/" &&
	    cp -a "$top_builddir"/.libs/libdtrace.so* "$tmp/" || exit 1
	run() {
		(cd "$tmp" && setpriv --reuid=65534 --regid=65534 \
		    --clear-groups env LD_LIBRARY_PATH="$tmp" ./dtrace "$@")
	}
else
	run() { "$top_builddir/cmd/dtrace" "$@"; }
fi

fail=0
check() {
	if [ "$2" != "$3" ]; then
		printf '%s:\n--- want\n%s\n--- got\n%s\n' "$1" "$2" "$3"
		fail=1
	fi
}

got=$(run -n 'sdt:::sched_switch { @[execname] = count(); }' 2>&1)
status=$?
check "exit status for kernel probes" 1 "$status"
check "first line" "dtrace: invalid probe specifier sdt:::sched_switch { @[execname] = count(); }: probe description sdt:::sched_switch does not match any probes" "$(echo "$got" | sed -n 1p)"
case $(echo "$got" | sed -n 2p) in
"dtrace: sdt probes need the BPF engine, which is not available: "?*) ;;
*) check "second line" "dtrace: sdt probes need the BPF engine, ..." \
	"$(echo "$got" | sed -n 2p)" ;;
esac
check "line count" 2 "$(echo "$got" | wc -l)"

# -l says the same of a description that matches nothing: the line
# DTrace prints, then why the provider has no probes.
got=$(run -l -n 'sdt:::sched_switch' 2>&1 >/dev/null)
check "-l exit status" 0 "$?"
check "-l first line" "dtrace: failed to match sdt:::sched_switch: No probe matches description" "$(echo "$got" | sed -n 1p)"
case $(echo "$got" | sed -n 2p) in
"dtrace: sdt probes need the BPF engine, which is not available: "?*) ;;
*) check "-l second line" "dtrace: sdt probes need the BPF engine, ..." \
	"$(echo "$got" | sed -n 2p)" ;;
esac
check "-l line count" 2 "$(echo "$got" | wc -l)"

# syscall probes exist (the ptrace engine fires them for -c and -p
# processes), but not for every process: the error says so, and why the
# engine that sees every process cannot run (the privileges it needs).
got=$(run -n 'syscall:::entry { @[execname] = count(); }' 2>&1)
check "exit status for syscall probes without a process" 1 "$?"
matched="dtrace: description 'syscall:::entry ' matched $(run -l -n 'syscall:::entry' 2>/dev/null | tail -n +2 | wc -l) probes"
check "syscall probes without a process" "$matched
dtrace: could not enable tracing: syscall probes on the ptrace engine see only the processes of -c and -p, and none is given; the in-kernel engine is not available: <why>" \
    "$(echo "$got" | sed 's/\(in-kernel engine is not available: \).*(needs root, or CAP_BPF and CAP_PERFMON)$/\1<why>/')"

got=$(run -q -n 'BEGIN { printf("%d\n", 6 * 7); exit(0); }' 2>&1)
check "interpreter exit status" 0 "$?"
check "interpreter output" "42" "$got"

# profile-N fires on every CPU and samples what runs there: from dtrace's
# own timers it would sample dtrace on one CPU.  Refused with one line.
got=$(run -q -n 'profile-99 { @[pid] = count(); } tick-1s { exit(0); }' 2>&1)
check "profile-N exit status" 1 "$?"
case $got in
"dtrace: could not enable tracing: probe profile:::profile-99 needs the in-kernel engine, which is not available: "*[!\n]*)
	check "profile-N refused in one line" 1 "$(echo "$got" | wc -l)" ;;
*) check "profile-N refused" "dtrace: could not enable tracing: probe profile:::profile-99 needs the in-kernel engine, which is not available: ..." "$got" ;;
esac

got=$(run -x engine=bpf -q -n 'BEGIN { exit(0); }' 2>&1)
check "forced BPF exit status" 1 "$?"
case $got in
"dtrace: could not enable tracing: the bpf engine is not available: "?*) ;;
*) check "forced BPF message" "dtrace: could not enable tracing: the bpf engine is not available: ..." "$got" ;;
esac
exit $fail

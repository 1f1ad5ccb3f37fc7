#!/bin/bash
# SPDX-License-Identifier: MIT
# arm64-guest.sh BUILDDIR [PART...]: run inside the arm64 lab's guest
# (tests/klab/arm64-lab.sh) as root, with BUILDDIR a tree cross-built
# for arm64 (tests/isa/cross-aarch64.sh).  It prints the kernel, the
# features the feature probe finds there, then runs, with the test
# runner of `make check`: the unit tests; the shell tests of the kernel
# and user providers (syscall, profile, tick, sdt/rawtp, proc, sched,
# fbt, pid, USDT, user stacks, unprivileged users, the ptrace engine);
# and the D tests of tests/d/run and tests/d/aggs on both engines (or
# only the PARTs named: unit, shell, shell-all (every shell test of
# tests/shell, as make check runs them), shell-rest (those shell does
# not run), ptrace (the shell tests of the ptrace engine and of the pid
# and USDT providers, which run on both engines), cmd (tests/cmd), d
# (all of tests/d), d-run, d-aggs, d-<any tests/d dir>, shell:A,B (the
# shell tests A.sh and B.sh)).
# Last comes one line per part, "arm64 <part>: N passed, M failed,
# K skipped"; it exits 1 if any test failed.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:?usage: $0 BUILDDIR [PART...]}" && pwd)
shift

echo "kernel: $(uname -srm)"
export top_srcdir=$top top_builddir=$build DTRACE=$build/cmd/dtrace
# The guest is emulated (TCG): a dtrace there takes seconds to start.
export TEST_TIMEOUT_SCALE=${TEST_TIMEOUT_SCALE:-5}
"$DTRACE" -V
echo "features:"
"$DTRACE" -x engine=bpf -n 'BEGIN { exit(0); }' -q >/dev/null 2>&1 &&
    echo "  bpf engine: BEGIN runs" || echo "  bpf engine: BEGIN fails"
for f in /sys/kernel/btf/vmlinux /sys/kernel/tracing/events/syscalls \
    /sys/bus/event_source/devices/uprobe /sys/bus/event_source/devices/kprobe; do
	[ -e "$f" ] && echo "  $f" || echo "  (no $f)"
done

units=$(cd "$build" && ls tests/unit/*_test 2>/dev/null | tr '\n' ' ')
shells=
for t in syscall-count syscall-builtins syscall-typed-args kevent \
    proc-provider sched-provider fbt pid-provider pid-args pid-tailcall \
    usdt ustack tick-busy unprivileged engine-choice ptrace-engine \
    pid-refused pid-modname usdt-late uregs-engines; do
	shells="$shells tests/shell/$t.sh"
done

all_shells= rest_shells=
for t in "$top"/tests/shell/*.sh; do
	t=tests/shell/${t##*/}
	[ "$t" = tests/shell/lib.sh ] && continue
	all_shells="$all_shells $t"
	case " $shells " in *" $t "*) ;; *) rest_shells="$rest_shells $t" ;; esac
done

ptrace_shells=
for t in "$top"/tests/shell/ptrace-*.sh "$top"/tests/shell/pid-*.sh \
    "$top"/tests/shell/usdt*.sh; do
	ptrace_shells="$ptrace_shells tests/shell/${t##*/}"
done
for t in grab-refused syscall-linger uregs-engines engine-choice; do
	ptrace_shells="$ptrace_shells tests/shell/$t.sh"
done

summary=()
part() {
	local name=$1 filter=$2 log=/tmp/arm64-$1.log
	shift 2
	env "$@" bash "$top/tests/run-tests.sh" "$filter" 2>&1 | tee "$log"
	summary+=("arm64 $name: $(tail -1 "$log")")
}
parts=${*:-unit shell d-run d-aggs}
for p in $parts; do
	case $p in
	unit) part unit unit/ UNIT_TESTS="$units" SHELL_TESTS= ;;
	shell) part shell shell/ UNIT_TESTS= SHELL_TESTS="$shells" ;;
	shell-all) part shell-all shell/ UNIT_TESTS= SHELL_TESTS="$all_shells" ;;
	shell-rest) part shell-rest shell/ UNIT_TESTS= SHELL_TESTS="$rest_shells" ;;
	ptrace) part ptrace shell/ UNIT_TESTS= SHELL_TESTS="$ptrace_shells" ;;
	cmd) part cmd cmd/ UNIT_TESTS= SHELL_TESTS= ;;
	d) part d d/ UNIT_TESTS= SHELL_TESTS= ;;
	d-*) part "$p" "d/${p#d-}/" UNIT_TESTS= SHELL_TESTS= ;;
	shell:*)
		named=
		for t in $(echo "${p#shell:}" | tr , " "); do
			named="$named tests/shell/$t.sh"
		done
		part "$p" shell/ UNIT_TESTS= SHELL_TESTS="$named" ;;
	*) echo "arm64-guest: no part $p (unit, shell, shell-all, shell-rest, ptrace, cmd, d, d-DIR, shell:NAME,...)" >&2
	   exit 2 ;;
	esac
done
echo
printf '%s\n' "${summary[@]}"
printf '%s\n' "${summary[@]}" | grep -qv ' 0 failed' && exit 1
exit 0

# SPDX-License-Identifier: MIT
# lib.sh: helpers sourced by the shell tests of user-space tracing
# (ustack*.sh, pid-*.sh, usdt-late.sh), of stacks (kernel-stack.sh,
# folded-stacks.sh) and of killing dtrace (chaos.sh,
# ptrace-tracer-killed.sh); not a test itself.

fail=0

# The BPF engine's pid probes on a program the test compiles need root,
# a C compiler and the kernel's uprobe PMU: exit 77 (skip) saying which
# is missing.
need_bpf_uprobes() {
	[ "$(id -u)" -eq 0 ] ||
		{ echo "needs root to load BPF programs"; exit 77; }
	command -v cc >/dev/null ||
		{ echo "needs a C compiler (cc)"; exit 77; }
	[ -r /sys/bus/event_source/devices/uprobe/type ] ||
		{ echo "the kernel has no uprobe PMU"; exit 77; }
}

# need_features NAME...: exit 77 (skip) naming the first kernel feature,
# as the feature probe names it (tests/unit/bpf_features_test), that the
# kernel lacks.
need_features() {
	local feats f
	feats=$("$top_builddir/tests/unit/bpf_features_test" 2>/dev/null)
	for f in "$@"; do
		printf '%s\n' "$feats" | grep -q "^$f  *yes" ||
			{ echo "the kernel lacks $f"; exit 77; }
	done
}

# has_features NAME...: whether the kernel has every one of these
# features, as the feature probe names them; feature_lacking says the
# first it lacks.
feature_lacking=
has_features() {
	local feats f
	feats=$("$top_builddir/tests/unit/bpf_features_test" 2>/dev/null)
	for f in "$@"; do
		printf '%s\n' "$feats" | grep -q "^$f  *yes" ||
			{ feature_lacking=$f; return 1; }
	done
}

# Whether the kernel is older than 6.12, the oldest seen to give a kernel
# stack at syscall tracepoints: older ones (6.1) hand them the user
# registers, from which no kernel frame is walked.
old_syscall_kstack() {
	local maj min
	IFS=. read -r maj min _ <<<"$(uname -r)"
	min=${min%%[!0-9]*}
	[ "$maj" -lt 6 ] || { [ "$maj" -eq 6 ] && [ "$min" -lt 12 ]; }
}

# check WHAT WANT GOT: "ok: WHAT", or FAIL with both texts (sets fail=1).
check() {
	local what=$1 want=$2 got=$3
	if [ "$got" != "$want" ]; then
		printf 'FAIL: %s\n--- want\n%s\n--- got\n%s\n' "$what" "$want" \
		    "$got"
		fail=1
	else
		echo "ok: $what"
	fi
}

# The engines that fire pid probes here, in $engines: bpf as root with
# uprobes, ptrace where dtrace has it for this processor (it says why
# not); exit 77 (skip) when neither does.
pid_engines() {
	local why
	engines=
	if [ "$(id -u)" -eq 0 ] &&
	    [ -r /sys/bus/event_source/devices/uprobe/type ]; then
		engines=bpf
	else
		echo "note: the bpf engine needs root and uprobes"
	fi
	why=$("$DTRACE" -q -x engine=ptrace -n 'BEGIN { exit(0); }' 2>&1 |
	    sed -n 's/.*the ptrace engine is not available: //p')
	if [ -z "$why" ]; then
		engines="${engines:+$engines }ptrace"
	else
		echo "note: no ptrace engine here: $why"
	fi
	[ -n "$engines" ] ||
		{ echo "no engine fires pid probes here"; exit 77; }
}

# Wait up to 10 s for background process $1 (a child of the test) to
# end: 0 if it did; else kill it and return 1.
ends() {
	for _ in $(seq 100); do
		if ! kill -0 "$1" 2>/dev/null; then
			wait "$1" 2>/dev/null
			return 0
		fi
		sleep 0.1
	done
	kill -KILL "$1"
	wait "$1" 2>/dev/null
	return 1
}

#!/bin/bash
# SPDX-License-Identifier: MIT
# folded-stacks.sh: -x oformat=folded prints stack-keyed aggregations as
# flame-graph tools read them: one line per stack, frames from the
# outermost to the innermost joined by ';', without offsets (so calls
# from two places in one function fold into one frame), leading frames
# for the other keys, then a space and the count.  A program calls
# getppid() 3 times through main -> mid -> leaf and 2 times through
# main -> leaf; the user stacks must say exactly that, and the kernel
# stacks, keyed by execname first, must add up to 5.  A quantize() has
# no folded form: one line on stderr says it was left out.
set -u

. "$top_srcdir/tests/shell/lib.sh"	# old_syscall_kstack()
[ "$(id -u)" -eq 0 ] || { echo "needs root to load BPF programs"; exit 77; }
command -v cc >/dev/null || { echo "needs a C compiler (cc)"; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/calls.c" <<'C'
#include <unistd.h>

static void __attribute__((noinline))
leaf(int n)
{
	for (int i = 0; i < n; i++)
		(void) getppid();
	__asm__ volatile("" ::: "memory");
}

static void __attribute__((noinline))
mid(void)
{
	leaf(3);
	__asm__ volatile("" ::: "memory");
}

int
main(void)
{
	mid();
	leaf(2);
	return 0;
}
C
cc -O1 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls \
	-o "$tmp/calls" "$tmp/calls.c" || exit 1

"$DTRACE" -q -x oformat=folded -n '
    syscall::getppid:entry /pid == $target/ {
        @u[ustack()] = count();
        @k[execname, stack()] = count();
        @q = quantize(1);
    }' -c "$tmp/calls" >"$tmp/out" 2>"$tmp/err"
rc=$?
fail=0
[ $rc -eq 0 ] || { echo "FAIL: dtrace exited $rc: $(cat "$tmp/err")"; fail=1; }

# User stacks: the part from main inward is exact; what calls main
# (_start, the C library) is whatever this libc does.  On arm64, whose
# stacks follow frame pointers (no CFI unwinder there yet), the caller
# of getppid(), a wrapper that keeps no frame record, is in the link
# register at the system call and not seen: there the stacks must still
# run from main through mid (or not) to getppid with their counts.
# The same where the kernel lacks what walking a system call's user
# stack by CFI takes (Linux 5.10: no task_pt_regs(), no bpf_loop()).
leaf='calls`leaf;'
if [ "$(uname -m)" = aarch64 ]; then
	echo "note: arm64 stacks follow frame pointers: leaf(), getppid()'s caller, is not seen"
	leaf='\(calls`leaf;\)\{0,1\}'
elif ! has_features task_pt_regs bpf_loop map_in_map; then
	echo "note: the kernel lacks $feature_lacking: system-call probes'" \
	    "user stacks follow frame pointers, and leaf(), getppid()'s" \
	    "caller, is not seen"
	leaf='\(calls`leaf;\)\{0,1\}'
fi
grep -q '^calls`main;calls`mid;'"$leaf"'libc.so.6`getppid 3$' \
	<(sed 's/^.*;calls`main;/calls`main;/' "$tmp/out") ||
	{ echo "FAIL: no main;mid;leaf;getppid 3 line"; fail=1; }
grep -q '^calls`main;'"$leaf"'libc.so.6`getppid 2$' \
	<(sed 's/^.*;calls`main;/calls`main;/' "$tmp/out") ||
	{ echo "FAIL: no main;leaf;getppid 2 line"; fail=1; }
# Kernel stacks: execname first, kernel frames without offsets, 5 in all.
klines=$(grep '^calls;vmlinux`' "$tmp/out")
ksum=$(awk '{ s += $NF } END { print s + 0 }' <<<"$klines")
if [ "$ksum" = 0 ] && old_syscall_kstack && grep -qx 'calls 5' "$tmp/out"; then
	echo "note: kernel $(uname -r) gives no kernel stack at syscall" \
	    "tracepoints: the 5 calls are under execname alone"
elif [ "$ksum" != 5 ]; then
	echo "FAIL: kernel stacks add up to $ksum, not 5"
	fail=1
fi
grep -q '+0x' "$tmp/out" && { echo "FAIL: a frame has an offset"; fail=1; }
# Every line is frames, a space, a number; no other output.
bad=$(grep -cvE '^[^ ].* [0-9]+$' "$tmp/out")
[ "$bad" = 0 ] || { echo "FAIL: $bad lines not in folded form"; fail=1; }
[ "$(grep -c . "$tmp/out")" -ge 3 ] || { echo "FAIL: too few lines"; fail=1; }
grep -qx 'dtrace: @q not printed: a quantize() has no folded form' "$tmp/err" ||
	{ echo "FAIL: no note about the quantize()"; fail=1; }
[ $fail -eq 0 ] || cat "$tmp/out" "$tmp/err"
exit $fail

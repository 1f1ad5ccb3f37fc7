#!/bin/bash
# SPDX-License-Identifier: MIT
# ptrace-ustack.sh: ustack() at a function's entry and at its return, on
# every engine that fires pid probes: the probed function, then its
# caller, then the caller's caller, and the same frames on each engine.
# At those sites the function has made no frame of its own, so a walk by
# frame pointers (arm64's objects have no unwind rows here) starts at
# the caller's frame; the caller's return address, in the link register
# or on top of the stack, must come second all the same.
set -u
. "$top_srcdir/tests/shell/lib.sh"

command -v cc >/dev/null || { echo "needs a C compiler (cc)"; exit 77; }
pid_engines

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/st.c" <<'C'
#include <stdio.h>
__attribute__((noinline)) int
leaf(int x)
{
	__asm__ volatile("" ::: "memory");
	return x + 1;
}
__attribute__((noinline)) int
mid(int x)
{
	return leaf(x) * 2;
}
int
main(void)
{
	printf("%d\n", mid(3));
	return 0;
}
C
cc -O1 -fno-omit-frame-pointer -fno-optimize-sibling-calls \
    -o "$tmp/st" "$tmp/st.c" || exit 1

# The first three frames, by function name.
frames() {
	awk '/`/ { sub(/^[ \t]+/, ""); sub(/\+0x[0-9a-f]+$/, "");
	    sub(/^[^`]*`/, ""); print }' | head -n 3 | tr '\n' ' '
}
want="leaf mid main "
for e in $engines; do
	for p in entry return; do
		got=$("$DTRACE" -x engine=$e -q -c "$tmp/st" \
		    -n "pid\$target:st:leaf:$p { ustack(); }" 2>&1 | frames)
		check "$e: ustack() at leaf:$p" "$want" "$got"
	done
done
exit $fail

#!/bin/bash
# SPDX-License-Identifier: MIT
# pid-args.sh: at a pid entry probe argN are the function's arguments:
# the argument registers (x86-64: six, arm64: eight, x0..x7) and then,
# as DTrace reads them, the words the caller left on the stack (x86-64:
# above the return address; arm64: from the stack pointer up).  A
# function of ten arguments shows all ten, on every engine.  (The BPF
# engine reads only the stack words some clause uses.)
set -u

command -v cc >/dev/null || { echo "needs a C compiler (cc)"; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$top_srcdir/tests/shell/lib.sh"	# check(), pid_engines()
pid_engines

cat >"$tmp/a10.c" <<'C'
__attribute__((noinline)) long
f10(long a, long b, long c, long d, long e, long f, long g, long h, long i,
    long j)
{
	return a + b + c + d + e + f + g + h + i + j;
}

int
main(void)
{
	volatile long s = f10(10, 11, 12, 13, 14, 15, 16, 17, 18, 19);

	return s == 0;
}
C
cc -O1 -o "$tmp/a10" "$tmp/a10.c" || exit 1
for e in $engines; do
	got=$("$DTRACE" -x engine="$e" -q -c "$tmp/a10" -n \
	    'pid$target:a.out:f10:entry { printf("%d %d %d %d %d %d %d %d %d %d",
	    arg0, arg1, arg2, arg3, arg4, arg5, arg6, arg7, arg8, arg9); }' \
	    2>&1 | grep .)
	check "$e: ten arguments" "10 11 12 13 14 15 16 17 18 19" "$got"
	# A program that reads one stack word (arg9 on either ISA) reads it right.
	got=$("$DTRACE" -x engine="$e" -q -c "$tmp/a10" -n \
	    'pid$target:a.out:f10:entry { printf("%d", arg9); }' 2>&1 | grep .)
	check "$e: arg9 alone" "19" "$got"
done
exit $fail

#!/bin/bash
# SPDX-License-Identifier: MIT
# ustack.sh: user stacks and symbols of a program built with frame
# pointers, calling main -> a -> b -> c: ustack() at c's entry (the
# caller's frame included although c has not pushed its own yet), at
# offset 0 and at every instruction of c, stacks as aggregation keys,
# usym/ufunc/umod/uaddr and %A of uregs[R_PC],
# ucaller, ustackdepth, and JSON.  Offsets depend on the compiler, so
# frames are checked by shape; counts are exact.
set -u

. "$top_srcdir/tests/shell/lib.sh"	# check(), need_bpf_uprobes()
need_bpf_uprobes

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

cat >"$tmp/prog.c" <<'C'
#include <stdlib.h>

__attribute__((noinline)) int
c(int x)
{
	return x * 2 + 1;
}

__attribute__((noinline)) int
b(int x)
{
	int r = c(x) + 1;

	__asm__ volatile("" ::: "memory");
	return r;
}

__attribute__((noinline)) int
a(int x)
{
	int r = b(x) + 1;

	__asm__ volatile("" ::: "memory");
	return r;
}

int
main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10;
	volatile long s = 0;

	for (int i = 0; i < n; i++)
		s += a(i);
	return 0;
}
C
cc -O1 -fno-omit-frame-pointer -fno-inline -o "$tmp/ustackprog" \
    "$tmp/prog.c" || exit 1
prog="$tmp/ustackprog"


# Frame lines with their offsets blanked: "prog`b+0x.." for any offset.
shape() {
	sed -e 's/+0x[0-9a-f]*$/+0x../' -e 's/^ *//'
}

# ustack() at c's entry: c itself (no offset), then b, a and main at
# their return sites.  Frames below main depend on libc's build.
got=$("$DTRACE" -q -c "$prog 1" \
    -n 'pid$target::c:entry { ustack(); }' 2>&1 | shape | head -n 5)
want='
ustackprog`c
ustackprog`b+0x..
ustackprog`a+0x..
ustackprog`main+0x..'
check "ustack() at c:entry" "$want" "$got"

# Offset 0 is the entry: the same stack.
got=$("$DTRACE" -q -c "$prog 1" \
    -n 'pid$target::c:0 { ustack(); }' 2>&1 | shape | head -n 5)
check "ustack() at c:0" "$want" "$got"

# At every instruction of c, a leaf, b is its caller (through CFI, or on
# arm64, where c never makes a frame, from the link register).
got=$("$DTRACE" -q -c "$prog 1" -n 'pid$target::c:
    /probename != "entry" && probename != "return"/
    { printf("@%s\n", probename); ustack(4); }' 2>&1 | shape |
    awk '/^@/ { n++; next } /^ustackprog`b\+/ { nb++ }
	END { print (n > 1 && n == nb) ? "every" : n " offsets, " nb " with b" }')
check "ustack() at every instruction of the leaf c names b" "every" "$got"

# ustack(2): two frames only.
got=$("$DTRACE" -q -c "$prog 1" \
    -n 'pid$target::c:entry { ustack(2); }' 2>&1 | shape | grep -c .)
check "ustack(2) prints two frames" "2" "$got"

# The same stack as an aggregation key: one entry, counted exactly.
n=1000
got=$("$DTRACE" -q -c "$prog $n" \
    -n 'pid$target::c:entry { @[ustack(4)] = count(); }' 2>&1 | shape |
    grep .)
want="ustackprog\`c
ustackprog\`b+0x..
ustackprog\`a+0x..
ustackprog\`main+0x..
$n"
check "@[ustack(4)] = count()" "$want" "$got"

# The symbol actions on the probe site; ucaller at c's entry is b's
# return site, in b; ustackdepth counts at least c, b, a, main.
got=$("$DTRACE" -q -c "$prog 1" -n 'pid$target::c:entry {
	usym(uregs[R_PC]); ufunc(uregs[R_PC]); umod(uregs[R_PC]);
	uaddr(uregs[R_PC]); uaddr(uregs[R_PC] + 1);
	printf("\n%A|%A|%d\n", uregs[R_PC], ucaller, ustackdepth >= 4);
	printf("%d\n", uregs[R_PC] == ucaller);
	}' 2>&1 | sed -e 's/  *$//' -e 's/  */ /g' -e 's/b+0x[0-9a-f]*|/b+0x..|/')
want=' ustackprog`c ustackprog`c ustackprog ustackprog`c ustackprog`c+0x1
ustackprog`c|ustackprog`b+0x..|1
0'
check "usym, ufunc, umod, uaddr, %A, ucaller, ustackdepth" "$want" "$got"

# ucaller at c's entry is the return address b's call to c pushed: the
# same address uregs[R_PC] has at c's return site, ustack()'s second
# frame there.
got=$("$DTRACE" -q -c "$prog 1" \
    -n 'pid$target::c:entry { self->c = ucaller; }
	pid$target::c:return { printf("%d\n", self->c == ucaller); ustack(2); }' \
    2>&1 | shape | grep .)
want='1
ustackprog`c+0x..
ustackprog`b+0x..'
check "ucaller at entry and return, ustack() at return" "$want" "$got"

# Aggregating on ufunc() and umod() of every instruction of b files all
# of b's addresses under one key each, as DTrace does.
got=$("$DTRACE" -q -c "$prog 3" -n 'pid$target::b: {
	@f[ufunc(uregs[R_PC])] = count(); @m[umod(uregs[R_PC])] = count();
	@n = count(); }
	END { printa("%A %@d\n", @f); printa(@m); printa("%@d\n", @n); }' \
    2>&1 | sed -e 's/  */ /g' | grep .)
nb=$(printf '%s\n' "$got" | tail -n 1)
want="ustackprog\`b $nb
 ustackprog $nb
$nb"
check "@[ufunc()] and @[umod()] merge a function's addresses" "$want" "$got"

# uregs[] at a return probe: the registers at c's ret instruction (the
# return value in R_R0), as the uprobe there sees them.
got=$("$DTRACE" -q -c "$prog 3" -n 'pid$target::c:return {
	printf("%A %d\n", uregs[R_PC], uregs[R_R0]); }' 2>&1 |
    sed 's/+0x[0-9a-f]* /+0x.. /' | grep .)
want='ustackprog`c+0x.. 1
ustackprog`c+0x.. 3
ustackprog`c+0x.. 5'
check "uregs[] at c:return" "$want" "$got"

# JSON: the stack as an array of frames.
got=$("$DTRACE" -q -x oformat=json -c "$prog 1" \
    -n 'pid$target::c:entry { ustack(3); }' 2>/dev/null |
    grep -o '\["ustackprog`c","ustackprog`b+0x[0-9a-f]*","ustackprog`a+0x[0-9a-f]*"\]' |
    wc -l)
check "JSON ustack" "1" "$got"

# An index past the register table: DTrace's illegal operation.
got=$("$DTRACE" -q -c "$prog 1" -n 'pid$target::c:entry { trace(uregs[100]); }' \
    2>&1 | grep -c 'illegal operation')
check "uregs[100] faults" "1" "$got"

exit $fail

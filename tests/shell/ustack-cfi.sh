#!/bin/bash
# SPDX-License-Identifier: MIT
# ustack-cfi.sh: user stacks of a program built as Debian builds, without
# frame pointers (-O2 -fomit-frame-pointer, with the default asynchronous
# unwind tables), walked through its CFI on both engines that fire pid
# probes (bpf as root, ptrace): every frame of main -> a -> b -> c ->
# probe_here in order, at the entry and at the return site, and at every
# instruction of c() (prologue, body, epilogue; on arm64 also with
# return addresses signed); libc's frames
# between a qsort() callback and main; ustack(N), ustackdepth and ucaller
# agreeing with ustack(); stacks as aggregation keys, counted exactly; and
# jstack(), which without a Java helper is ustack() with jstackframes.
set -u

command -v cc >/dev/null || { echo "needs a C compiler (cc)"; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top_srcdir/tests/shell/lib.sh"
cc -O2 -fomit-frame-pointer -fasynchronous-unwind-tables -o "$tmp/nofp" \
    "$top_srcdir/tests/shell/data/ustack-nofp.c" || exit 1
prog="$tmp/nofp"

pid_engines

# Frame lines with offsets blanked and indentation dropped.
shape() {
	sed -e 's/+0x[0-9a-f]*$/+0x../' -e 's/^ *//'
}

# Every instruction of c() of program $2 on engine $1: prologue, body,
# epilogue and return site alike, each stack is c, b, a, main (the return
# address in the link register, saved, or restored to it, as the CFI
# says).
every_insn() {
	local got n bad

	got=$("$DTRACE" -x engine="$1" -q -c "$2 1" \
	    -n 'pid$target::c: { ustack(4); }' 2>&1 | shape | grep .)
	n=$(printf '%s\n' "$got" | grep -c '^nofp`c')
	bad=$(printf '%s\n' "$got" | awk '
	    NR % 4 == 1 && $0 !~ /^nofp`c(\+0x..)?$/ ||
	    NR % 4 == 2 && $0 != "nofp`b+0x.." ||
	    NR % 4 == 3 && $0 != "nofp`a+0x.." ||
	    NR % 4 == 0 && $0 != "nofp`main+0x.." { print NR ": " $0 }' |
	    head -3)
	check "$1: ustack(4) at every instruction of c()$3" "yes " \
	    "$([ "$n" -ge 6 ] && echo yes) $bad"
}

for e in $engines; do
	dt=("$DTRACE" -x engine="$e" -q)

	got=$("${dt[@]}" -c "$prog 1" -n 'pid$target::probe_here:entry {
	    ustack(); }' 2>&1 | shape | sed -n 2,6p)
	want='nofp`probe_here
nofp`c+0x..
nofp`b+0x..
nofp`a+0x..
nofp`main+0x..'
	check "$e: ustack() at entry, without frame pointers" "$want" "$got"

	got=$("${dt[@]}" -c "$prog 1" -n 'pid$target::probe_here:return {
	    ustack(4); }' 2>&1 | shape | grep .)
	want='nofp`probe_here+0x..
nofp`c+0x..
nofp`b+0x..
nofp`a+0x..'
	check "$e: ustack(4) at the return site" "$want" "$got"

	every_insn "$e" "$prog" ""

	# A callback of libc's qsort(): libc's frames, then main.
	got=$("${dt[@]}" -c "$prog 0 q" -n 'pid$target::probe_here:entry {
	    ustack(); }' 2>&1 | shape | grep . |
	    sed -e '/^libc.so.6`qsort/q' -e '/^libc/d')
	want='nofp`probe_here
nofp`cmp+0x..
libc.so.6`qsort'
	check "$e: qsort() callback" "$want" "$(printf '%s\n' "$got" |
	    sed 's/^\(libc.so.6`qsort\).*/\1/')"
	got=$("${dt[@]}" -c "$prog 0 q" -n 'pid$target::probe_here:entry {
	    ustack(); }' 2>&1 | shape | grep . |
	    sed -n '/^libc.so.6`qsort/,$p' | grep -m1 -v '^libc')
	check "$e: main below qsort()" 'nofp`main+0x..' "$got"

	# ustackdepth counts the frames ustack() prints; ucaller is the
	# second of them.
	out=$("${dt[@]}" -c "$prog 1" -n 'pid$target::probe_here:entry {
	    printf("%d\n%A\n", ustackdepth, ucaller); ustack(); }' 2>&1)
	depth=$(printf '%s\n' "$out" | sed -n 1p)
	nframes=$(printf '%s\n' "$out" | sed -n '3,$p' | grep -c .)
	caller=$(printf '%s\n' "$out" | sed -n 2p)
	second=$(printf '%s\n' "$out" | sed -n '3,$p' | grep . | sed -n 2p |
	    sed 's/^ *//')
	check "$e: ustackdepth = frames of ustack() (>= 5)" \
	    "$nframes yes" "$depth $([ "$depth" -ge 5 ] && echo yes)"
	check "$e: ucaller = second frame" "$second" "$caller"

	# As an aggregation key: one stack, counted exactly.
	got=$("${dt[@]}" -c "$prog 500" -n 'pid$target::probe_here:entry {
	    @[ustack(5)] = count(); }' 2>&1 | shape | grep .)
	want='nofp`probe_here
nofp`c+0x..
nofp`b+0x..
nofp`a+0x..
nofp`main+0x..
500'
	check "$e: @[ustack(5)] = count()" "$want" "$got"

	# jstack(): ustack() with jstackframes (no Java frames to annotate).
	got=$("${dt[@]}" -x jstackframes=3 -c "$prog 1" \
	    -n 'pid$target::probe_here:entry { jstack(); }' 2>&1 | shape |
	    grep .)
	want='nofp`probe_here
nofp`c+0x..
nofp`b+0x..'
	check "$e: jstack() with jstackframes=3" "$want" "$got"
	# (A frame of a function that no symbol table names is its address,
	# which differs from run to run: arm64 libc's __libc_start_call_main.)
	a=$("${dt[@]}" -c "$prog 1" -n 'pid$target::probe_here:entry {
	    jstack(); }' 2>&1 | sed 's/`0x[0-9a-f]*$/`0x.../')
	b=$("${dt[@]}" -c "$prog 1" -n 'pid$target::probe_here:entry {
	    ustack(); }' 2>&1 | sed 's/`0x[0-9a-f]*$/`0x.../')
	check "$e: jstack() = ustack()" "$b" "$a"
done

# arm64 with return addresses signed (pointer authentication, which the
# processor of the arm64 lab has): the walk strips what it reads, from
# the stack or from x30.
if [ "$(uname -m)" = aarch64 ]; then
	mkdir "$tmp/pac"
	cc -O2 -fomit-frame-pointer -fasynchronous-unwind-tables \
	    -mbranch-protection=pac-ret -o "$tmp/pac/nofp" \
	    "$top_srcdir/tests/shell/data/ustack-nofp.c" || exit 1
	for e in $engines; do
		every_insn "$e" "$tmp/pac/nofp" ", return addresses signed"
	done
fi

exit $fail

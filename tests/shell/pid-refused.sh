#!/bin/bash
# SPDX-License-Identifier: MIT
# pid-refused.sh: a site the kernel's uprobes refuse (here a lock-prefixed
# instruction on x86-64, an svc on arm64) is skipped while the other
# sites of the enabling are traced: silently when a pattern made its probe (every instruction of a
# function is those that can be traced), with one line naming it when
# the description names it; when no site can be placed, the enabling
# fails with one line and exit status 1.
set -u

. "$top_srcdir/tests/shell/lib.sh"	# check(), need_bpf_uprobes()
need_bpf_uprobes
case $(uname -m) in
x86_64) refused=lock ;;
aarch64) refused=svc ;;
*) echo "no instruction known that uprobes refuse on $(uname -m)"; exit 77 ;;
esac

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0


# atomic_fn: mov, lock xadd (refused by x86 uprobes), add, ret; on
# arm64 a getppid(2) by svc (uprobes refuse exception instructions).
cat >"$tmp/atom.c" <<'C'
#include <stdlib.h>

int counter;

__attribute__((noinline)) int
atomic_fn(int x)
{
#if defined(__aarch64__)
	register long nr __asm__("x8") = 173; /* getppid */
	register long r __asm__("x0");

	__asm__ volatile("svc #0" : "=r"(r) : "r"(nr) : "memory");
	return (int) r + x + counter + 1;
#else
	return __atomic_fetch_add(&counter, x, __ATOMIC_SEQ_CST) + 1;
#endif
}

int
main(int argc, char **argv)
{
	int n = atoi(argv[1]);
	long s = 0;

	for (int i = 0; i < n; i++)
		s += atomic_fn(i);
	return s == 0;
}
C
cc -O1 -fno-inline -o "$tmp/atom" "$tmp/atom.c" || exit 1
# Every instruction of atomic_fn by its offset, and the refused one's.
objdump -d --no-show-raw-insn "$tmp/atom" 2>/dev/null |
    awk '/<atomic_fn>:/ { f = 1; next } f && /^$/ { exit }
	f { sub(":", "", $1); print $1, $2 }' >"$tmp/insns"
fn=$(objdump -d "$tmp/atom" 2>/dev/null | awk '/<atomic_fn>:/ { print $1 }')
lock=$(awk -v r="$refused" '$2 == r { print $1 }' "$tmp/insns")
[ -n "$lock" ] && [ -n "$fn" ] ||
	{ echo "no $refused instruction in atomic_fn"; exit 77; }
rel=$(printf '%x' $((0x$lock - 0x$fn)))
want=$( { echo entry; echo return
	while read -r addr _; do
		[ "$addr" = "$lock" ] || printf '%x\n' $((0x$addr - 0x$fn))
	done <"$tmp/insns"; } | sort | sed 's/$/ 1000/')

"$DTRACE" -q -c "$tmp/atom 1000" -n 'pid$target::atomic_fn:
	{ @[probename] = count(); }
	END { printa("%s %@d\n", @); }' >"$tmp/out" 2>"$tmp/err"
check "every other site counts every call" "$want" \
    "$(grep . "$tmp/out" | sort)"
check "a pattern's refused site is skipped silently" "" "$(cat "$tmp/err")"

# Named, with a site that can be placed: one line names the refused one.
"$DTRACE" -q -c "$tmp/atom 1000" -n "pid\$target::atomic_fn:$rel,
    pid\$target::atomic_fn:entry { @[probename] = count(); }
	END { printa(\"%s %@d\n\", @); }" >"$tmp/out" 2>"$tmp/err"
check "the named site's neighbour counts every call" "entry 1000" \
    "$(grep . "$tmp/out")"
check "one line names the refused site" \
    "dtrace: skipped pid<N>:atom:atomic_fn:$rel at $tmp/atom offset 0x$lock: the kernel cannot place a uprobe there" \
    "$(sed 's/pid[0-9]*:/pid<N>:/' "$tmp/err")"

# Only the refused site: nothing to trace is an error, in one more line.
"$DTRACE" -q -c "$tmp/atom 10" -n "pid\$target::atomic_fn:$rel { }" \
    >"$tmp/out" 2>"$tmp/err"
check "no site placed: exit 1" 1 "$?"
check "no site placed: the reason" \
    "dtrace: could not enable tracing: the kernel cannot place a uprobe at any site of the enabling" \
    "$(tail -n 1 "$tmp/err")"

# Many refused sites in one enabling: every function of a program, four
# of which begin with instructions x86-64 uprobes refuse, and two with
# ones a guess by opcode alone might doubt but the kernel takes.  The
# doubtful sites are tried alone, beside the one link of the others:
# each refused one is named once, every other function counts its call.
if [ "$(uname -m)" = x86_64 ]; then
	cat >"$tmp/many.c" <<'C'
#define F(name, insn) __asm__(".text\n.globl " #name "\n.type " #name \
    ",@function\n" #name ":\n" insn "\nret\n.size " #name ", .-" #name);\
    void name(void);
F(f_lock, "lock incl -8(%rsp)")
F(f_vmovd, "vmovd %esi,%xmm0")
F(f_vpxor, "vpxor %xmm1,%xmm1,%xmm1")
F(f_notrack, ".byte 0x3e; nop")
F(f_pshufb, "pshufb %xmm1,%xmm0")
F(f_popcnt, "popcnt %eax,%eax")
F(f_plain, "mov %rdi,%rax")

int
main(void)
{
	f_lock(); f_vmovd(); f_vpxor(); f_notrack();
	f_pshufb(); f_popcnt(); f_plain();
	return 0;
}
C
	cc -O1 -mavx -msse4.2 -mpopcnt -o "$tmp/many" "$tmp/many.c" || exit 1
	"$DTRACE" -q -c "$tmp/many" -n 'pid$target:a.out:f_*:entry
	    { @[probefunc] = count(); } END { printa("%s %@d\n", @); }' \
	    >"$tmp/out" 2>"$tmp/err"
	check "many refused: exit 0" 0 "$?"
	check "many refused: the others count their call" \
	    "$(printf '%s 1\n' f_plain f_popcnt f_pshufb)" \
	    "$(grep . "$tmp/out" | sort)"
	check "many refused: each named once" \
	    "$(printf '%s\n' f_lock f_notrack f_vmovd f_vpxor)" \
	    "$(sed -n 's/^dtrace: skipped [^:]*:[^:]*:\([^:]*\):entry .*/\1/p' \
		"$tmp/err" | sort)"

	# More refused sites than are worth a line each: one line counts
	# them and names the first.
	cat >"$tmp/lots.c" <<'C'
#define F(name) __asm__(".text\n.globl " #name "\n.type " #name \
    ",@function\n" #name ":\nlock incl -8(%rsp)\nret\n.size " #name \
    ", .-" #name); void name(void);
F(g_1) F(g_2) F(g_3) F(g_4) F(g_5) F(g_6)

int
main(void)
{
	g_1(); g_2(); g_3(); g_4(); g_5(); g_6();
	return 0;
}
C
	cc -O1 -o "$tmp/lots" "$tmp/lots.c" || exit 1
	"$DTRACE" -q -c "$tmp/lots" -n 'pid$target:a.out:g_*:entry,
	    pid$target:a.out:main:entry { @[probefunc] = count(); }
	    END { printa("%s %@d\n", @); }' >"$tmp/out" 2>"$tmp/err"
	check "lots refused: exit 0" 0 "$?"
	check "lots refused: main counts" "main 1" "$(grep . "$tmp/out")"
	check "lots refused: one line, counting them" \
	    "dtrace: skipped 6 probe sites (the first pid<N>:lots:g_<F>:entry at $tmp/lots offset 0x<X>): the kernel cannot place a uprobe there" \
	    "$(sed -e 's/pid[0-9]*:/pid<N>:/' -e 's/g_[0-9]:entry/g_<F>:entry/' \
		-e 's/offset 0x[0-9a-f]*/offset 0x<X>/' "$tmp/err")"
fi

exit $fail

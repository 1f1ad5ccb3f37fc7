#!/bin/bash
# SPDX-License-Identifier: MIT
# pid-modname.sh: a pid probe's module may be named as DTrace names a
# process's objects -- the file's basename (libc.so.6), its basename up to
# a '.' (libc, libc.so), a.out for the executable -- while listings and
# probemod keep the file's real basename; a name no object has matches no
# probe.  USDT probes' modules are named the same way.  A function named
# by a weak alias is the preferred symbol's probe.
set -u

command -v cc >/dev/null || { echo "needs a C compiler (cc)"; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$top_srcdir/tests/shell/lib.sh"	# check(), pid_engines()
pid_engines

cat >"$tmp/prog.c" <<'C'
#include <stdlib.h>

__attribute__((noinline)) int
prog_fn(int x)
{
	return x + 1;
}

int
main(void)
{
	int s = 0;

	for (int i = 0; i < 3; i++) {
		void *volatile p = malloc(100);

		free(p);
		s += prog_fn(i);
	}
	return s == 0;
}
C
cc -O1 -o "$tmp/prog.1" "$tmp/prog.c" || exit 1

libc=$(ldd "$tmp/prog.1" | awk '$1 ~ /^libc\./ { print $1; exit }')
[ -n "$libc" ] || { echo "the program does not link a libc.*"; exit 77; }
short=${libc%%.*}

for e in $engines; do
	for m in "$libc" "$short" "$short.so" "${short}*"; do
		got=$("$DTRACE" -x engine="$e" -q -c "$tmp/prog.1" -n \
		    "pid\$target:$m:malloc:entry { @[probemod] = count(); }
		    END { printa(\"%s %@d\n\", @); }" 2>&1)
		check "$e: module $m" "$libc 3" "$got"
	done
	for m in a.out prog prog.1; do
		got=$("$DTRACE" -x engine="$e" -q -c "$tmp/prog.1" -n \
		    "pid\$target:$m:prog_fn:entry { @[probemod] = count(); }
		    END { printa(\"%s %@d\n\", @); }" 2>&1)
		check "$e: module $m" "prog.1 3" "$got"
	done
done

# Listing prints the file's real name.
got=$("$DTRACE" -l -c "$tmp/prog.1" -n "pid\$target:$short:malloc:entry" \
    2>&1 | awk 'NR > 1 { print $3, $4, $5 }')
check "listing keeps the real name" "$libc malloc entry" "$got"

# A prefix not ending at a '.' names nothing.
"$DTRACE" -q -c "$tmp/prog.1" -n "pid\$target:${short:0:3}:malloc:entry" \
    >/dev/null 2>"$tmp/err"
st=$?
check "a partial name matches no probe" "1 does not match any probes" \
    "$st $(grep -o 'does not match any probes' "$tmp/err")"

# A function named by a weak alias is the probe of the symbol DTrace
# prefers at that address (the global one): either name finds it, and
# probefunc is the preferred name.
cat >"$tmp/weak.c" <<'C'
__attribute__((noinline)) int
strong_fn(int x)
{
	return x + 1;
}

extern int weak_fn(int) __attribute__((weak, alias("strong_fn")));

int
main(void)
{
	int s = 0;

	for (int i = 0; i < 3; i++)
		s += weak_fn(i);
	return s == 0;
}
C
cc -O1 -o "$tmp/weak" "$tmp/weak.c" || exit 1
for e in $engines; do
	got=$("$DTRACE" -x engine="$e" -q -c "$tmp/weak" -n \
	    'pid$target:a.out:weak_fn:entry { @[probefunc] = count(); }
	    END { printa("%s %@d\n", @); }' 2>&1)
	check "$e: weak alias" "strong_fn 3" "$got"
done

# USDT modules are named the same way.  The probe's note is written by
# hand (what <sys/sdt.h> emits), so no SDT header is needed.
if [ "$(getconf LONG_BIT)" = 64 ]; then
	cat >"$tmp/usdt.c" <<'C'
#include <unistd.h>

__asm__(".pushsection .stapsdt.base,\"aG\",\"progbits\",.stapsdt.base,comdat\n"
    ".weak _.stapsdt.base\n.hidden _.stapsdt.base\n"
    "_.stapsdt.base: .space 1\n.size _.stapsdt.base,1\n.popsection\n");

__attribute__((noinline)) void
fire(int x)
{
	__asm__ volatile("990: nop\n"
	    ".pushsection .note.stapsdt,\"?\",\"note\"\n"
	    ".balign 4\n.4byte 992f-991f,994f-993f,3\n"
	    "991: .asciz \"stapsdt\"\n992: .balign 4\n"
	    "993: .8byte 990b\n.8byte _.stapsdt.base\n.8byte 0\n"
	    ".asciz \"modprov\"\n.asciz \"tick\"\n.asciz \"-4@%0\"\n"
	    "994: .balign 4\n.popsection\n" :: "r"(x));
}

int
main(void)
{
	for (int i = 0; i < 3; i++)
		fire(i);
	return 0;
}
C
	cc -O1 -o "$tmp/usdt.1" "$tmp/usdt.c" || exit 1
	for e in $engines; do
		for m in usdt.1 usdt a.out; do
			got=$("$DTRACE" -x engine="$e" -q -c "$tmp/usdt.1" -n \
			    "modprov\$target:$m::tick { @[probemod] = count(); }
			    END { printa(\"%s %@d\n\", @); }" 2>&1)
			check "$e: USDT module $m" "usdt.1 3" "$got"
		done
	done
fi
exit $fail

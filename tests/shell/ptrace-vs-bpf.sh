#!/bin/bash
# SPDX-License-Identifier: MIT
# ptrace-vs-bpf.sh: pid$target::main:entry, a return probe and a probe on
# every instruction of a function (pid$target:a.out:func:) count the same
# on every engine that fires pid probes, and leave the program's output
# as it is untraced.  The function has a loop, a conditional branch, a
# pc-relative address (adrp or a RIP-relative store) and a store the
# copies out of line must run, so each way a displaced instruction is
# run is taken thousands of times.  Small enough for an emulated arm64
# guest, where every hit on the ptrace engine is a stop.
set -u
. "$top_srcdir/tests/shell/lib.sh"

command -v cc >/dev/null || { echo "needs a C compiler (cc)"; exit 77; }
pid_engines

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/prog.c" <<'C'
#include <stdio.h>
#include <stdlib.h>

static volatile long sink;

__attribute__((noinline)) long
func(long n)
{
	long s = 0;

	for (long i = 0; i < n; i++) {
		if (i & 1)
			s += i * 3;
		else
			s -= i;
	}
	sink = s;
	return s;
}

int
main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10, t = 0;

	for (int k = 0; k < 20; k++)
		t += func(n + k);
	printf("total %ld\n", t);
	return 0;
}
C
cc -O1 -o "$tmp/prog" "$tmp/prog.c" || exit 1
plain=$("$tmp/prog" 30)

script='pid$target::main:entry { @m = count(); }
    pid$target:a.out:func:return { @r = count(); }
    pid$target:a.out:func: { @i = count(); }
    END { printa("main:entry %@d\n", @m); printa("func:return %@d\n", @r);
	printa("func:* %@d\n", @i); }'
first=
for e in $engines; do
	out=$("$DTRACE" -x engine=$e -q -c "$tmp/prog 30" -n "$script" 2>&1 |
	    grep -v '^$')
	check "$e: the program's output" "$plain" \
	    "$(echo "$out" | grep '^total')"
	counts=$(echo "$out" | grep -v '^total')
	check "$e: main:entry and func:return" "main:entry 1
func:return 20" "$(echo "$counts" | grep -v '^func:\*')"
	n=$(echo "$counts" | awk '/^func:\*/ { print $2 }')
	# Every instruction of 20 calls with 30 to 49 iterations each.
	[ "${n:-0}" -gt 2000 ] ||
		check "$e: every instruction of func, counted" "> 2000" "$n"
	if [ -z "$first" ]; then
		first=$counts
	else
		check "$e: the counts of the first engine" "$first" "$counts"
	fi
done
exit $fail

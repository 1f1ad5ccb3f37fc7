#!/bin/bash
# SPDX-License-Identifier: MIT
# uregs-engines.sh: uregs[] by the D prelude's names, as the ISA layer
# (isa/dt_isa.h) numbers them, on every engine that fires pid probes:
#  - at a function's entry, uregs[R_PC] is the function's address (its
#    symbol, offset 0), the first argument register holds the first
#    argument, and the caller's return address is where the ISA keeps it
#    (the word at R_SP on x86-64, R_X30 on arm64);
#  - at its return, uregs[R_R0] is the return value (arg1);
#  - an index past the ISA's registers is an error, not a value.
# The ptrace engine once read uregs[] as ptrace's own register order, so
# uregs[R_PC] was another register.
set -u
. "$top_srcdir/tests/shell/lib.sh"

command -v cc >/dev/null || { echo "needs a C compiler (cc)"; exit 77; }
case $(uname -m) in
x86_64) arg0=R_RDI ret='*(uint64_t *) copyin(uregs[R_SP], 8)' ;;
aarch64) arg0=R_X0 ret='uregs[R_X30]' ;;
*) echo "no uregs[] names known for $(uname -m) here"; exit 77 ;;
esac

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/t.c" <<'C'
#include <stdio.h>
__attribute__((noinline)) long
probed(long a, long b)
{
	__asm__ volatile("" ::: "memory");
	return a * 2 + b;
}
int
main(void)
{
	printf("%ld\n", probed(0x1234, 0x10));
	return 0;
}
C
cc -O1 -fno-omit-frame-pointer -o "$tmp/t" "$tmp/t.c" || exit 1

pid_engines
for e in $engines; do
	got=$(cd "$tmp" && "$top_builddir/cmd/dtrace" -q -x engine=$e -c ./t \
	    -n "pid\$target:a.out:probed:entry {
		usym(uregs[R_PC]); printf(\"\\n\");
		usym($ret); printf(\"\\n\");
		printf(\"arg0 %x %d\\n\", uregs[$arg0], uregs[$arg0] == arg0);
	    }
	    pid\$target:a.out:probed:return {
		printf(\"r0 %x %d\\n\", uregs[R_R0], uregs[R_R0] == arg1);
	    }" 2>"$tmp/err")
	got=$(printf '%s\n' "$got" | sed 's/[[:space:]]*$//; s/^[[:space:]]*//' |
	    grep -v '^$')
	# The program's own line (0x2478), wherever it falls among ours.
	check "$e: the program's output" 9336 "$(printf '%s\n' "$got" |
	    grep -x '[0-9]*')"
	check "$e: uregs at entry and return" "t\`probed
t\`main
arg0 1234 1
r0 2478 1" "$(printf '%s\n' "$got" | grep -vx '[0-9]*')"

	# Past the last register: DTrace's "illegal operation", no value.
	out=$(cd "$tmp" && "$top_builddir/cmd/dtrace" -q -x engine=$e -c ./t \
	    -n 'pid$target:a.out:probed:entry { trace(uregs[1000]); }' 2>&1)
	case $out in
	*"illegal operation"*) echo "ok: $e: uregs[1000] is an error" ;;
	*) check "$e: uregs[1000] is an error" "... illegal operation ..." \
	    "$out"; fail=1 ;;
	esac
done
exit $fail

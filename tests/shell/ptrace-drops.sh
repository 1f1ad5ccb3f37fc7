#!/bin/bash
# SPDX-License-Identifier: MIT
# ptrace-drops.sh: the ptrace engine reports every record it drops, as the
# BPF engine does ("dtrace: N drops on CPU c", "dtrace: N aggregation
# drops on CPU c"): with buffers too small for a run, every firing is
# either printed or counted in a drop report.
set -u

command -v cc >/dev/null || { echo "needs a C compiler (cc)"; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top_srcdir/tests/shell/lib.sh"	# check()
cat >"$tmp/loop.c" <<'C'
#include <stdlib.h>

__attribute__((noinline)) int
f(int i)
{
	return i + 1;
}

int
main(int argc, char **argv)
{
	int n = atoi(argv[1]), s = 0;

	for (int i = 0; i < n; i++)
		s += f(i);
	return s == 0;
}
C
cc -O1 -o "$tmp/loop" "$tmp/loop.c" || exit 1
dtrace=$top_builddir/cmd/dtrace
n=20000
# Where every call is a stop (no counting trampolines: arm64), fewer
# calls: 2,000 keys still overflow aggsize=4k many times over.
[ "$(uname -m)" = x86_64 ] || n=2000

# Sum of the counts of the drop reports of $2 ("drop" or "aggregation
# drop", plural or not: DTrace says "1 drop") in file $1; fails the test
# on any other line.
drops() {
	awk -v what="$2" '
	    $0 ~ "^dtrace: [0-9]+ " what "s? on CPU [0-9]+$" { s += $2; next }
	    /^dtrace: [0-9]+ (aggregation )?drops? on CPU/ { next }
	    { print "unexpected: " $0 > "/dev/stderr"; bad = 1 }
	    END { print s + 0; exit bad }' "$1"
}

# The principal buffer: a record per firing.
"$dtrace" -x engine=ptrace -b 4k -q -c "$tmp/loop $n" \
    -n 'pid$target::f:entry { printf("%d\n", arg0); }' \
    >"$tmp/out" 2>"$tmp/err"
printed=$(grep -c . "$tmp/out")
dropped=$(drops "$tmp/err" drop) || fail=1
# Whether the consumer falls behind is the machine's speed (on an
# emulated arm64 guest each stop is slow and it keeps up): what must hold
# either way is that every firing is printed or counted.
[ "$dropped" -gt 0 ] ||
	echo "note: the consumer kept up with -b 4k: no drops to count here"
check "records printed + dropped" "$n" "$((printed + dropped))"

# Aggregations: a key per firing.
"$dtrace" -x engine=ptrace -x aggsize=4k -q -c "$tmp/loop $n" \
    -n 'pid$target::f:entry { @[arg0] = count(); }
	END { printa("%d %@d\n", @); }' >"$tmp/out" 2>"$tmp/err"
printed=$(grep -c . "$tmp/out")
dropped=$(drops "$tmp/err" "aggregation drop") || fail=1
[ "$dropped" -gt 0 ] ||
	check "keys dropped with aggsize=4k" "some" "$dropped"
check "keys printed + dropped" "$n" "$((printed + dropped))"
exit $fail

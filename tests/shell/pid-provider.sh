#!/bin/bash
# SPDX-License-Identifier: MIT
# pid-provider.sh: the pid provider under -c counts exactly what a program
# does -- entry, return (with the return site's offset and the value) and
# every instruction offset of a function, a.out for the executable, probes
# in a shared library, and dtrace ending when the command does.
set -u

. "$top_srcdir/tests/shell/lib.sh"	# check(), need_bpf_uprobes()
need_bpf_uprobes
command -v objdump >/dev/null || { echo "needs objdump (binutils)"; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# bench_fn is a small leaf (an lea and a ret at -O1 on x86-64; two
# instructions and a ret on arm64): its instructions are those objdump
# finds, checked below against the listing dtrace itself makes.
cat >"$tmp/prog.c" <<'C'
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) int
bench_fn(int x)
{
	return x * 2 + 1;
}

int
main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10;
	long s = 0;

	for (int i = 0; i < n; i++)
		s += bench_fn(i);
	/* getenv through the PLT: a probe in libc. */
	for (int i = 0; i < 3; i++)
		if (getenv("DTRACE_PID_TEST_UNSET") != NULL)
			s++;
	printf("%ld\n", s);
	return 0;
}
C
cc -O1 -fno-inline -o "$tmp/prog" "$tmp/prog.c" || exit 1


# Exactly N entries, counted by the BPF program in the target.
n=100000
got=$("$DTRACE" -q -c "$tmp/prog $n" \
    -n 'pid$target::bench_fn:entry { @ = count(); }
	END { printa("%@d\n", @); }' 2>&1)
check "entry counts $n calls" "$(printf '%d\n%d' $((n * n)) $n)" "$got"

# The instructions of bench_fn: their offsets (decimal) as objdump finds
# them, the last being the ret.
start=$(nm "$tmp/prog" | awk '$3 == "bench_fn" { print $1 }')
declare -a insn=()
while read -r addr; do
	insn+=($((16#${addr%:} - 16#$start)))
done < <(objdump -d --no-show-raw-insn --disassemble=bench_fn "$tmp/prog" |
    awk '/^ +[0-9a-f]+:/ { print $1 }')
ret=${insn[${#insn[@]} - 1]}
hexoffs=$(printf '%x\n' "${insn[@]}" | LC_ALL=C sort)

# The instructions of bench_fn, as the decoder sees them.
offs=$("$DTRACE" -l -c "$tmp/prog" -n 'pid$target:a.out:bench_fn:' 2>&1 |
    awk 'NR > 1 && $5 ~ /^[0-9a-f]+$/ { print $5 }' | sort | tr '\n' ' ')
check "bench_fn's instruction offsets" "$(echo "$hexoffs" | tr '\n' ' ')" "$offs"

# Every probe of the function: entry, each offset, return; the return
# probe's arg0 is the offset of the ret, arg1 the value returned.
got=$("$DTRACE" -q -c "$tmp/prog 5" \
    -n 'pid$target:a.out:bench_fn: { @[probename] = count(); }
	pid$target::bench_fn:return { @r[arg0, arg1] = count(); }
	pid$target::bench_fn:entry { @a[arg0] = count(); }
	END { printa("%s %@d\n", @); printa("ret %d %d %@d\n", @r);
	    printa("arg %d %@d\n", @a); }' 2>&1)
want="25
$(printf '%s 5\n' $hexoffs)
entry 5
return 5
ret $ret 1 1
ret $ret 3 1
ret $ret 5 1
ret $ret 7 1
ret $ret 9 1
arg 0 1
arg 1 1
arg 2 1
arg 3 1
arg 4 1"
check "entry, offsets and return of bench_fn" "$want" "$got"

# A function of a shared library, by module name.
got=$("$DTRACE" -q -c "$tmp/prog 1" \
    -n 'pid$target:libc.so.6:getenv:entry { @ = count(); }
	END { printa("getenv %@d\n", @); }' 2>&1 | grep getenv)
check "libc.so.6:getenv entry" "getenv 3" "$got"

# Without -q, the end of the command is announced as DTrace does.
got=$("$DTRACE" -c "$tmp/prog 1" -n 'pid$target::bench_fn:entry' 2>&1 |
    grep -c "dtrace: pid [0-9]* has exited")
check "exit notice" "1" "$got"

# -x followfork: ten children, each calling bench_fn 1000 times, all
# counted, and each a progeny of the target.
cat >"$tmp/forker.c" <<'C'
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) int
bench_fn(int x)
{
	return x * 2 + 1;
}

int
main(int argc, char **argv)
{
	int kids = atoi(argv[1]), m = atoi(argv[2]);

	for (int k = 0; k < kids; k++) {
		if (fork() == 0) {
			long s = 0;

			for (int i = 0; i < m; i++)
				s += bench_fn(i);
			_exit(s == 0);
		}
	}
	while (wait(NULL) > 0)
		continue;
	return 0;
}
C
cc -O1 -fno-inline -o "$tmp/forker" "$tmp/forker.c" || exit 1
got=$("$DTRACE" -q -x followfork -c "$tmp/forker 10 1000" \
    -n 'pid$target::bench_fn:entry /progenyof($target)/ { @ = count(); }
	pid$target::bench_fn:entry { @p[pid] = count(); }
	END { printa("%@d\n", @); }' 2>&1 | head -n 1)
check "followfork counts 10 x 1000 calls" "10000" "$got"
got=$("$DTRACE" -q -c "$tmp/forker 10 1000" \
    -n 'pid$target::bench_fn:entry { @ = count(); }
	END { printa("%@d\n", @); }' 2>&1 | head -n 1)
check "without followfork, children are not traced" "" "$got"

# -p: a running process.
"$tmp/prog" 1 >/dev/null
sleep 30 &
spid=$!
"$DTRACE" -q -p "$spid" -n 'tick-100ms { printf("%d\n", $target); exit(0); }' \
    >"$tmp/out" 2>&1
kill "$spid"
check "-p sets \$target" "$spid" "$(head -n 1 "$tmp/out")"

exit $fail

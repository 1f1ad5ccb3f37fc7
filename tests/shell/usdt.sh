#!/bin/bash
# SPDX-License-Identifier: MIT
# usdt.sh: USDT probes of a -c target -- <sys/sdt.h> probes counted
# exactly, their arguments decoded (registers, negative values, strings,
# memory operands, constants, a probe whose sites pass arguments in
# different places), a semaphore-guarded probe firing only while enabled,
# dtrace -l listing them, globs over the traced processes, and a program
# built the DTrace way (dtrace -h, dtrace -G) firing its probes, and
# -x followfork counting the probes of forked children.
#
# It runs on the BPF engine (uprobes), then again on the ptrace engine
# (breakpoints, semaphores written into the process): USDT_ENGINE names
# the engine of a run, and the BPF run starts the ptrace one.
set -u

engine=${USDT_ENGINE:-bpf}
command -v cc >/dev/null || { echo "needs a C compiler (cc)"; exit 77; }
if [ "$engine" = bpf ]; then
	if [ "$(id -u)" -ne 0 ] ||
	    [ ! -r /sys/bus/event_source/devices/uprobe/type ]; then
		echo "skip: the BPF engine needs root and the uprobe PMU"
		USDT_ENGINE=ptrace exec bash "$0"
	fi
elif [ "$(uname -m)" != x86_64 ]; then
	echo "the ptrace engine is x86-64 only"
	exit 77
fi
echo "engine: $engine"
DTRACE_BIN=$DTRACE
dt() { "$DTRACE_BIN" -x engine="$engine" "$@"; }
echo '#include <sys/sdt.h>' | cc -E - >/dev/null 2>&1 ||
	{ echo "needs <sys/sdt.h> (systemtap-sdt-dev)"; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# The target's output and dtrace's interleave as they will: compare sorted.
check() {
	local what=$1 want got
	want=$(sort <<<"$2")
	got=$(sort <<<"$3")
	if [ "$got" != "$want" ]; then
		printf 'FAIL: %s\n--- want\n%s\n--- got\n%s\n' "$what" "$want" \
		    "$got"
		fail=1
	else
		echo "ok: $what"
	fi
}

cat >"$tmp/prog.c" <<'C'
#define _SDT_HAS_SEMAPHORES 1
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sdt.h>

#define SEMA(name) unsigned short myprov_##name##_semaphore \
	__attribute__((section(".probes")))
SEMA(tick);
SEMA(str__arg);
SEMA(guarded);
SEMA(two);

struct big { long a, b, c; };

__attribute__((noinline)) static void
work(int i, const char *s, struct big *bp)
{
	long v = bp->c;

	DTRACE_PROBE2(myprov, tick, i, -i);
	DTRACE_PROBE3(myprov, str__arg, s, (long) strlen(s), v);
	if (myprov_guarded_semaphore)
		DTRACE_PROBE1(myprov, guarded, i);
}

/* One probe, two sites: the second passes its argument elsewhere. */
__attribute__((noinline)) static int
two(int a, int b)
{
	DTRACE_PROBE1(myprov, two, a);
	b = b * 3 + a;
	DTRACE_PROBE1(myprov, two, b);
	return b;
}

int
main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10, g = 0, t = 0;
	struct big b = { 1, 2, 3 };

	for (int i = 0; i < n; i++) {
		char buf[16];

		(void) snprintf(buf, sizeof (buf), "hello%d", i % 10);
		b.c = 1000 + i;
		work(i, buf, &b);
		if (myprov_guarded_semaphore)
			g++;
	}
	t = two(1, 2);
	printf("%d %d\n", g, t);
	return 0;
}
C
cc -O2 -o "$tmp/prog" "$tmp/prog.c" || exit 1
# -O0: the arguments are memory operands, -4@-20(%rbp)
cc -O0 -o "$tmp/prog0" "$tmp/prog.c" || exit 1

n=10000
script='myprov$target:::tick { @t = count(); @neg[arg1 < 0] = count();
	    @mx = max(arg0); @mn = min(arg1); }
	myprov$target:::str-arg /arg2 == 1005/ {
	    printf("%s %d %d\n", copyinstr(arg0), arg1, arg2); }
	myprov$target:::two { @two = sum(arg0); }
	END { printa("ticks %@d\n", @t); printa("neg %d %@d\n", @neg);
	    printa("max %@d min %@d\n", @mx, @mn); printa("two %@d\n", @two); }'
want="0 7
hello5 6 1005
ticks $n
neg 0 1
neg 1 $((n - 1))
max $((n - 1)) min -$((n - 1))
two 8"
for p in prog prog0; do
	got=$(dt -q -c "$tmp/$p $n" -n "$script" 2>&1)
	check "$p: counts and arguments" "$want" "$got"
done
# The two sites of myprov:::two do pass their argument differently.
ops=$(readelf -n "$tmp/prog" | grep -A3 'Name: two' |
    sed -n 's/.*Arguments: //p' | sort -u | wc -l)
check "two sites, two operands" "2" "$ops"

# args[] are typed from the operands: int32_t for -4@, uint64_t for 8@.
got=$(dt -lv -c "$tmp/prog" -n 'myprov$target:::str-arg' 2>&1 |
    sed -n 's/^[[:space:]]*args\[\([0-9]\)\]: /\1 /p')
check "-lv argument types" "0 uint64_t
1 int64_t
2 int64_t" "$got"
got=$(dt -q -c "$tmp/prog 3" -n 'myprov$target:::tick {
	printf("%d %d\n", args[0], args[1]); }' 2>&1)
check "typed args[]" "0 0
1 -1
2 -2
0 7" "$got"

# The semaphore: set while the probe is enabled, so the guarded code runs.
got=$(dt -q -c "$tmp/prog 100" -n 'myprov$target:::guarded {
	@ = count(); } END { printa("guarded %@d\n", @); }' 2>&1)
check "semaphore set while enabled" "100 7
guarded 100" "$got"
got=$(dt -q -c "$tmp/prog 100" -n 'myprov$target:::tick {
	@ = count(); } END { printa("ticks %@d\n", @); }' 2>&1)
check "semaphore clear while not enabled" "0 7
ticks 100" "$got"

# dtrace -l of the target's probes; a glob names the traced processes'.
got=$(dt -l -c "$tmp/prog" -n 'myprov$target:::' 2>&1 |
    awk 'NR > 1 { sub(/[0-9]+$/, "N", $2); print $2, $3, $5 }' | sort)
check "-l lists the probes" "myprovN prog guarded
myprovN prog str-arg
myprovN prog tick
myprovN prog two" "$got"
got=$(dt -l -c "$tmp/prog" -n 'myprov*:a.out:work*:tick' 2>&1 |
    awk 'NR > 1 { print $5 }')
check "myprov* glob, a.out and the function" "tick" "$got"
got=$(dt -l -c "$tmp/prog" -n 'myprov*:::' 2>&1 | awk 'NR > 1' |
    wc -l)
check "myprov* matches every probe" "4" "$got"
# A provider with no notes in the process matches nothing: -l says so,
# as DTrace does, after the heading.
got=$(dt -l -c "$tmp/prog" -n 'nosuch$target:::' 2>&1 | tail -n 1 |
    sed 's/nosuch[0-9][0-9]*/nosuchN/')
check "an unknown provider" "dtrace: failed to match nosuchN:::: No probe matches description" "$got"

# -x followfork: the probes of every child (10 children, 100 hits each).
cat >"$tmp/fork.c" <<'C'
#include <sys/sdt.h>
#include <sys/wait.h>
#include <unistd.h>

int
main(void)
{
	for (int c = 0; c < 10; c++) {
		if (fork() == 0) {
			for (int i = 0; i < 100; i++)
				DTRACE_PROBE1(fk, hit, i);
			_exit(0);
		}
	}
	while (wait(NULL) > 0)
		continue;
	return 0;
}
C
cc -O2 -o "$tmp/fork" "$tmp/fork.c" || exit 1
got=$(dt -q -x followfork -c "$tmp/fork" -n 'fk$target:::hit {
	@ = count(); } END { printa("hits %@d\n", @); }' 2>&1)
check "followfork: the children's probes" "hits 1000" "$got"

# A program built the DTrace way: -h for the macros, -G for the object.
cat >"$tmp/app.d" <<'D'
provider myapp {
	probe tick(int, int);
	probe str__arg(char *, long);
	probe guarded(int);
};
D
cat >"$tmp/app.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include "app.h"

int
main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10, g = 0;
	char buf[16] = "app";

	for (int i = 0; i < n; i++) {
		MYAPP_TICK(i, -i);
		MYAPP_STR_ARG(buf, (long) i * 1000);
		if (MYAPP_GUARDED_ENABLED()) {
			MYAPP_GUARDED(i);
			g++;
		}
	}
	printf("%d\n", g);
	return 0;
}
C
(cd "$tmp" && dt -h -s app.d && cc -O2 -c app.c &&
    dt -G -s app.d -o app-probes.o app.o &&
    cc -o app app.o app-probes.o && cc -O2 -o app-h app.c) || {
	echo "FAIL: building with dtrace -h and -G"
	exit 1
}
appscript='myapp$target:::tick { @t = count(); @n = min(arg1); }
	myapp$target:::str-arg /arg1 == 7000/ { printf("%s\n", copyinstr(arg0)); }
	myapp$target:::guarded { @g = count(); }
	END { printa("%@d %@d %@d\n", @t, @n, @g); }'
for p in app app-h; do
	got=$(dt -q -c "$tmp/$p 50" -n "$appscript" 2>&1)
	check "$p fires its probes" "app
50
50 -49 50" "$got"
done

# Static probes a Debian binary ships, when one is installed.
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3)
if [ -n "$py" ] && readelf -n "$(readlink -f "$py")" 2>/dev/null |
    grep -q 'Provider: python'; then
	got=$(dt -l -c "$py -c pass" -n 'python$target:::function-entry' \
	    2>&1 | awk 'NR > 1 { print $NF }')
	check "python's function-entry probe" "function-entry" "$got"
else
	echo "skip: no python3 with static probes installed"
fi

if [ "$engine" = bpf ]; then
	# The ptrace run skipping (77: no ptrace engine here) fails nothing.
	USDT_ENGINE=ptrace bash "$0"
	case $? in 0 | 77) ;; *) fail=1 ;; esac
fi
exit $fail

#!/bin/bash
# SPDX-License-Identifier: MIT
# pid-many.sh: the BPF engine serves any number of pid probes.  Where the
# kernel has uprobe_multi links, the entry, return and offset probes of a
# process are one program that finds its probe at run time: probemod,
# probefunc, probename and a return's arg0/arg1 must be what a program per
# probe (the path without uprobe_multi) gives, and every function of a
# program and its libraries (thousands of probes) traces with the default
# options, leaving the program's output as it was.
set -u

. "$top_srcdir/tests/shell/lib.sh"	# check(), need_bpf_uprobes()
need_bpf_uprobes

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/many.c" <<'C'
#include <stdio.h>

__attribute__((noinline)) int
twice(int x)
{
	return x * 2;
}

__attribute__((noinline)) int
more(int x)
{
	return twice(x) + 1;
}

int
main(void)
{
	int s = 0;

	for (int i = 0; i < 10; i++)
		s += more(i);
	printf("%d\n", s);
	return 0;
}
C
cc -O1 -fno-inline -o "$tmp/many" "$tmp/many.c" || exit 1

script='pid$target:many::entry { @e[probemod, probefunc, probename] = count(); }
	pid$target:many:twice:return { @r[probefunc, probename, arg1] = count(); }
	pid$target:many:more:0 { @o[probefunc, probename] = count(); }'
want=$(cat <<'W'
100
many main entry 1
many more entry 10
many twice entry 10
twice return 0 1
twice return 2 1
twice return 4 1
twice return 6 1
twice return 8 1
twice return 10 1
twice return 12 1
twice return 14 1
twice return 16 1
twice return 18 1
more 0 10
W
)
# (Less the C runtime's own functions in the program: _start, and on
# arm64 crti.o's call_weak_fn, which _init calls.)
norm() {
	grep -v '^$' | awk '{ $1 = $1; print }' |
	    grep -Ev ' (_start|call_weak_fn) entry'
}
# strsize 128: three strings make a key Linux 5.10's hash maps take.
got=$("$DTRACE" -q -x strsize=128 -n "$script" -c "$tmp/many" 2>&1 | norm)
check "entry, return and offset probes" "$want" "$got"
got=$(DTRACE_LINUX_NOFEATURE=uprobe_multi "$DTRACE" -q -x strsize=128 -n "$script" \
    -c "$tmp/many" 2>&1 | norm)
check "the same with a program per probe" "$want" "$got"

# Every function of ls and its libraries, with the default options.
want=$(ls -d / /usr)
out=$("$DTRACE" -q -n 'pid$target:::entry { @ = count(); }
	END { printa("calls %@d\n", @); }' -c 'ls -d / /usr' 2>"$tmp/err")
status=$?
check "ls's output under pid\$target:::entry" "$want" \
    "$(echo "$out" | grep -v '^calls' | grep -v '^$')"
check "exit status" 0 "$status"
calls=$(echo "$out" | awk '/^calls/ { print $2 }')
# How many functions have probes is what the symbol tables name: ls is
# stripped, so its calls are libc's and the dynamic linker's; with libc's
# full symbol table (its own, or Debian's libc6-dbg by build ID) its
# internal and ifunc-chosen functions count too (some 3,900 calls),
# without it only its exported ones (some 200 on Debian 12's arm64).
libc=$(ldd "$(command -v ls)" 2>/dev/null | awk '/libc\.so/ { print $3 }')
id=$(readelf -n "$libc" 2>/dev/null | awk '/Build ID/ { print $3 }')
if readelf -SW "$libc" 2>/dev/null | grep -q ' \.symtab ' ||
    { [ -n "$id" ] &&
    [ -f "/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug" ]; }; then
	if [ -z "$calls" ] || [ "$calls" -lt 500 ]; then
		echo "FAIL: pid\$target:::entry counted '$calls' calls of ls"
		sed 's/^/  /' "$tmp/err" | head -n 5
		fail=1
	else
		echo "ok: pid\$target:::entry counted $calls calls"
	fi
else
	# Only libc's dynamic symbols: no floor to hold the count to, so it
	# is held to the ptrace engine's, which sees the same calls through
	# breakpoints (where the BPF engine skipped no site).
	pout=$("$DTRACE" -x engine=ptrace -q -n 'pid$target:::entry
	    { @ = count(); } END { printa("calls %@d\n", @); }' \
	    -c 'ls -d / /usr' 2>&1)
	pcalls=$(echo "$pout" | awk '/^calls/ { print $2 }')
	if grep -q '^dtrace: skipped' "$tmp/err"; then
		echo "note: the BPF engine skipped sites: not compared"
	elif [ -n "$calls" ] && [ "$calls" -gt 0 ] &&
	    [ "$calls" = "$pcalls" ]; then
		echo "ok: pid\$target:::entry counted $calls calls (libc's" \
		    "dynamic symbols only), as the ptrace engine does"
	else
		echo "FAIL: pid\$target:::entry counted '$calls' calls of ls," \
		    "the ptrace engine '$pcalls'"
		fail=1
	fi
fi
# Without uprobe_multi, a program and a perf event (two descriptors) a
# site: thousands for a whole program, beyond the soft limit a process is
# usually given (1,024), which dtrace raises as it needs (to the hard
# limit, and as root with CAP_SYS_RESOURCE beyond it).  Here 70-odd sites
# from a limit of 100 (each site's detaching costs the kernel an RCU grace
# period: thousands would take minutes).
out=$(ulimit -S -n 100 && DTRACE_LINUX_NOFEATURE=uprobe_multi "$DTRACE" -q \
    -n 'pid$target:libc.so.6:str*:entry { @ = count(); }
    END { printa("calls %@d\n", @); }' -c 'ls -d / /usr' 2>&1)
check "ls with libc's str*() traced, a program a site, from 100 files" \
    "$want" "$(echo "$out" | grep -v '^calls' | grep -v '^$')"
matched=$("$DTRACE" -l -n 'pid$target:::entry' -c 'ls -d /' 2>/dev/null |
    wc -l)
[ "$matched" -gt 1000 ] && echo "ok: $matched probes listed" ||
	{ echo "FAIL: only $matched probes listed"; fail=1; }

# Every function of libm, some of whose symbols cover code this CPU cannot
# run (the kernel says ENOEXEC for them): skipped, the rest traced.
if command -v python3 >/dev/null; then
	out=$("$DTRACE" -q -n 'pid$target:libm.so.6::entry { @ = count(); }
	    END { printa("libm %@d\n", @); }' -c 'python3 -c 1' 2>&1)
	case $out in
	*"could not enable"*) echo "FAIL: libm: $out" | head -n 3; fail=1 ;;
	*) echo "ok: libm's entry probes enabled" ;;
	esac
fi

# A probe on an AVX-512 instruction (glibc's strchr on a CPU with it)
# must not break the program: the BPF engine skips the site and says so,
# the ptrace engine fires there.
if grep -qw avx512vl /proc/cpuinfo &&
    "$DTRACE" -l -n 'pid$target:libc.so.6:__strchr_evex:entry' \
	-c 'ls -d /' >/dev/null 2>&1; then
	out=$("$DTRACE" -q -n 'pid$target:libc.so.6:__strchr_evex:entry,
	    pid$target::exit:entry { @ = count(); }' -c 'ls -d / /usr' 2>&1)
	check "ls's output with __strchr_evex probed" "$want" \
	    "$(echo "$out" | grep '^/')"
	case $out in
	*"__strchr_evex:entry at "*"AVX-512"*) echo "ok: the site is skipped" ;;
	*) echo "FAIL: no word of the skipped site: $out"; fail=1 ;;
	esac
	out=$("$DTRACE" -x engine=ptrace -q -n \
	    'pid$target:libc.so.6:__strchr_evex:entry { @ = count(); }
	    END { printa("%@d\n", @); }' -c 'ls -d / /usr' 2>&1)
	check "the ptrace engine's output" "$want" "$(echo "$out" | grep '^/')"
	[ "$(echo "$out" | tail -n 1)" -gt 0 ] 2>/dev/null &&
	    echo "ok: the ptrace engine fires there" ||
	    { echo "FAIL: the ptrace engine: $out"; fail=1; }
else
	echo "note: no AVX-512 strchr here; its check is left out"
fi
exit $fail

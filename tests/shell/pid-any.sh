#!/bin/bash
# SPDX-License-Identifier: MIT
# pid-any.sh: system-wide user probes, pid*:FILE:FUNCTION:NAME, on the BPF
# engine -- a process started after dtrace is counted exactly (by
# execname, through libc's malloc by its full and short names, and its
# own functions by the executable's path), entry and return with arg0
# (the return site's offset) and arg1, a conditional tail call's return
# only when taken, ustack() symbolised in that process, dtrace -l, and
# one clear line for each error: a module that names no file, a pattern
# for a module, a function the file lacks, and an engine that cannot
# place them.
set -u

. "$top_srcdir/tests/shell/lib.sh"	# check(), need_bpf_uprobes()
need_bpf_uprobes
command -v objdump >/dev/null || { echo "needs objdump (binutils)"; exit 77; }

tmp=$(mktemp -d)
trap 'kill $dpid 2>/dev/null; rm -rf "$tmp"' EXIT
dpid=
fail=0

# A name of its own (execname is the first 15 bytes), so that other
# processes on the machine, which these probes see too, are not counted.
name=pidany$$
name=${name:0:15}
cat >"$tmp/prog.c" <<'C'
#include <stdlib.h>
#include <unistd.h>

__attribute__((noinline)) int
work_fn(int x)
{
	return x * 2 + 1;
}

__attribute__((noinline)) void *
alloc_fn(void)
{
	return malloc(12345);
}

__attribute__((noinline)) void
done_fn(void)
{
	__asm__ volatile("");
}

int
main(int argc, char **argv)
{
	int n = atoi(argv[1]);
	long s = 0;

	for (int i = 0; i < n; i++) {
		free(alloc_fn());
		s += work_fn(i);
	}
	done_fn();
	/* Alive while dtrace prints its stacks. */
	sleep(2);
	return s == 0;
}
C
cc -O1 -fno-inline -fno-omit-frame-pointer -o "$tmp/$name" "$tmp/prog.c" ||
	exit 1
prog=$tmp/$name

# The offset of work_fn's ret, from objdump.
start=$(nm "$prog" | awk '$3 == "work_fn" { print $1 }')
ret=$(objdump -d --no-show-raw-insn --disassemble=work_fn "$prog" |
    awk '/^ +[0-9a-f]+:/ { a = $1 } END { sub(":", "", a); print a }')
ret=$((16#$ret - 16#$start))

# run_traced SCRIPT: dtrace runs SCRIPT, then (once it traces) the program
# is started, as a process dtrace has never heard of; dtrace ends when it
# calls done_fn.  Its output is in $tmp/out and $tmp/err.
n=7
run_traced() {
	"$DTRACE" -q -n "BEGIN { printf(\"tracing\\n\"); }
	    pid*:$prog:done_fn:entry /execname == \"$name\"/ { exit(0); }
	    $1" >"$tmp/out" 2>"$tmp/err" &
	dpid=$!
	for _ in $(seq 300); do
		grep -q tracing "$tmp/out" 2>/dev/null && break
		kill -0 "$dpid" 2>/dev/null || break
		sleep 0.1
	done
	"$prog" $n &
	local ppid=$!
	wait "$dpid"
	dpid=
	wait "$ppid"
	sed -i '/^tracing$/d; /^$/d' "$tmp/out"
}

# pid* return probes need the kernel's uprobe_multi links (Linux 6.6),
# whose cookies say which return site fired; without them (6.1) they are
# refused in one line, and the return probes below are left out.
multi=true
"$DTRACE" -q -n "pid*:$prog:work_fn:return {} BEGIN { exit(0); }" \
    >"$tmp/out" 2>"$tmp/err" || multi=false
if ! $multi; then
	check "pid* return without uprobe_multi: one line" \
	    "dtrace: could not enable tracing: probe pid*:$name:work_fn:return needs the kernel's uprobe_multi, which this kernel does not offer" \
	    "$(grep -v 'matched' "$tmp/err" | sed 's/ (.*//')"
	echo "note: this kernel has no uprobe_multi links: pid* return" \
	    "probes are not tried"
fi

# malloc by the library's three names, each a clause of its own, and the
# program's own functions by its path: entry, and return with the ret's
# offset and the value (where the kernel has uprobe_multi).
rets="pid*:libc:malloc:entry /execname == \"$name\" && arg0 == 12345/
	{ self->m = 1; }
    pid*:libc:malloc:return /self->m/
	{ @r[arg1 != 0] = count(); self->m = 0; }
    pid*:$prog:work_fn:return { @wr[probemod, probefunc, arg0, arg1] =
	count(); }"
retsout="printa(\"malloc returned non-NULL %d: %@d\\n\", @r);
	printa(\"%s %s ret at %d: %d %@d\\n\", @wr);"
$multi || rets= retsout=
run_traced "
    pid*:libc.so.6:malloc:entry /execname == \"$name\" && arg0 == 12345/
	{ @a = count(); }
    pid*:libc:malloc:entry /execname == \"$name\" && arg0 == 12345/
	{ @b = count(); }
    pid*:libc.so:malloc:entry /execname == \"$name\" && arg0 == 12345/
	{ @c = count(); }
    $rets
    pid*:$prog:work_fn:entry { @w[arg0] = count(); }
    END { printa(\"libc.so.6 %@d\\n\", @a); printa(\"libc %@d\\n\", @b);
	printa(\"libc.so %@d\\n\", @c);
	printa(\"work_fn(%d) %@d\\n\", @w);
	$retsout }"
want="libc.so.6 $n
libc $n
libc.so $n
$(for i in $(seq 0 $((n - 1))); do echo "work_fn($i) 1"; done)
$($multi && echo "malloc returned non-NULL 1: $n")
$($multi && for i in $(seq 0 $((n - 1))); do
	echo "$name work_fn ret at $ret: $((2 * i + 1)) 1"; done)"
want=$(grep . <<<"$want")
check "a process started after dtrace, counted by pid*" "$want" \
    "$(cat "$tmp/out" "$tmp/err")"

# ustack() in that process, symbolised from its own maps: malloc, called
# from alloc_fn, called from main.
run_traced "
    pid*:libc:malloc:entry /execname == \"$name\" && arg0 == 12345/
	{ @[ustack(3)] = count(); }"
got=$(awk 'NF == 1 && $1 ~ /`/ { sub(/\+0x[0-9a-f]+$/, "", $1); print $1 }
    NF == 1 && $1 ~ /^[0-9]+$/ { print "count", $1 }' "$tmp/out")
want="libc.so.6\`malloc
$name\`alloc_fn
$name\`main
count $n"
check "ustack() symbolised in the traced process" "$want" "$got"

# dtrace -l: one probe per name, module libc.so.6, whichever name.
got=$("$DTRACE" -l -n 'pid*:libc:malloc:entry' \
    -n 'pid*:libc.so.6:malloc:return' 2>&1 | awk 'NR > 1 { $1 = ""; print }')
check "dtrace -l lists pid* probes" " pid* libc.so.6 malloc entry
 pid* libc.so.6 malloc return" "$got"
got=$("$DTRACE" -l -n "pid*:$prog:work_fn:entry" 2>&1 |
    awk 'NR > 1 { $1 = ""; print }')
check "dtrace -l, a path" " pid* $name work_fn entry" "$got"

# Beside pid$target: pid*:libc names the system-wide probe only, so the
# target's calls are counted once by each clause (not twice by pid*, as
# its pattern also matches pid<N>); pid* with no module is that pattern.
got=$("$DTRACE" -q -c "$prog 3" -n '
    pid$target:libc:malloc:entry /arg0 == 12345/ { @t = count(); }
    pid*:libc:malloc:entry /pid == $target && arg0 == 12345/ { @a = count(); }
    pid*:::entry /probefunc == "work_fn"/ { @w = count(); }
    pid$target::work_fn:entry { }
    END { printa("pid$target %@d\n", @t); printa("pid* %@d\n", @a);
	printa("pid*::: %@d\n", @w); }' 2>&1 | grep pid)
check "pid* beside pid\$target" "pid\$target 3
pid* 3
pid*::: 3" "$got"

# A path in a description, with the predicate right after it.
"$DTRACE" -e -n "pid*:$prog:work_fn:entry/arg0 == 1/{ trace(arg0); }" \
    >"$tmp/eout" 2>&1
check "a path then a predicate" "exit 0" "exit $?$(cat "$tmp/eout")"

# Errors: one line each, exit status 1.
err() {
	"$DTRACE" "${@:2}" -n "$1" >"$tmp/eout" 2>&1
	echo "exit $?"
	cat "$tmp/eout"
}
check "a library no one has" "exit 1
dtrace: invalid probe specifier pid*:libnosuch:malloc:entry: pid* module 'libnosuch' names no file: no such library in the dynamic linker's cache (/etc/ld.so.cache; give a path)" \
    "$(err 'pid*:libnosuch:malloc:entry')"
check "a path to nothing" "exit 1
dtrace: invalid probe specifier pid*:$tmp/none:f:entry: pid* module '$tmp/none' names no file: No such file or directory" \
    "$(err "pid*:$tmp/none:f:entry")"
check "a file that is not ELF" "exit 1
dtrace: invalid probe specifier pid*:$tmp/prog.c:f:entry: pid* module '$tmp/prog.c' names no file: it is not an ELF file" \
    "$(err "pid*:$tmp/prog.c:f:entry")"
check "a module pattern" "exit 1
dtrace: invalid probe specifier pid*:libc*:malloc:entry: pid* probes need a module that names one file, by path or library name (pid*:libc.so.6:malloc:entry), not the pattern 'libc*'" \
    "$(err 'pid*:libc*:malloc:entry')"
check "a function the file lacks" "exit 1
dtrace: invalid probe specifier pid*:libc:no_such_fn:entry: failed to lookup 'no_such_fn' in module 'libc'" \
    "$(err 'pid*:libc:no_such_fn:entry')"
# (The ptrace engine is built for x86-64 only.)
eng=interp
[ "$(uname -m)" = x86_64 ] && eng=ptrace
check "the $eng engine" "exit 1
dtrace: description 'pid*:libc:malloc:entry' matched 1 probe
dtrace: could not enable tracing: probe pid*:libc.so.6:malloc:entry cannot run on the $eng engine: pid* traces a file in every process, which only the in-kernel engine can (the ptrace engine needs a process ID: pid\$target, -p PID)" \
    "$(err 'pid*:libc:malloc:entry' -x engine=$eng)"

# A conditional tail call (x86-64): tc() returns through "jne leaf" for
# odd arguments, through ret for even ones; its return probe fires at
# the jne only when the branch is taken (the site is told by the
# uprobe's cookie, as its address is the process's own).
if [ "$(uname -m)" = x86_64 ] && $multi; then
	cc -O2 -o "$tmp/tc" "$top_srcdir/tests/shell/data/pid-tailcall.c" ||
		exit 1
	"$DTRACE" -q -n 'BEGIN { printf("tracing\n"); }' \
	    -n "pid*:$tmp/tc:tc:return { @[arg0] = count(); }
	    pid*:$tmp/tc:leaf:return { @l = count(); }
	    END { printa(\"at %d: %@d\n\", @); printa(\"leaf %@d\n\", @l); }" \
	    >"$tmp/out" 2>&1 &
	dpid=$!
	for _ in $(seq 300); do
		grep -q tracing "$tmp/out" 2>/dev/null && break
		sleep 0.1
	done
	"$tmp/tc" 1000
	kill -INT "$dpid"
	wait "$dpid"
	dpid=
	check "a conditional tail call's return, only when taken" "at 6: 500
at 11: 500
leaf 500" "$(grep -v -e tracing -e '^$' "$tmp/out")"
fi

exit $fail

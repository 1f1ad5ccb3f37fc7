#!/bin/bash
# SPDX-License-Identifier: MIT
# pprof-profile.sh: -x oformat=pprof writes each stack aggregation as a
# profile that go tool pprof reads, with the stacks and values printa()
# prints.  A program calls work() 3 times through main -> mid -> leaf and
# 2 times through main -> leaf, and getppid() once per work(); the same
# D program runs twice on it, printing as text and writing profiles, and
# for each aggregation (count() and sum() of user stacks, count() of
# kernel stacks keyed by execname too) the stacks go tool pprof -traces
# gives (function names, innermost first, with the execname label) and
# their values must be the text's (frames without module and offset),
# and the totals go tool pprof -top gives must be the text's.  The
# mappings carry the program's path and build ID (as readelf reads it),
# and the kernel's "[kernel.kallsyms]" with /sys/kernel/notes' build ID.
# Under -x noresolve the program's frames have no names but their
# mapping, and pprof, symbolising them itself from the file, must find
# the same functions: the mapping's addresses and offset are right.
# Then the files: printa() numbers them, the end of the run does not;
# several aggregations are told apart by name; an aggregation without a
# stack and a quantize() are left out with one line each on stderr; and
# with no -o, or -o in a directory that is not there, dtrace refuses to
# start, with one line.
set -u

. "$top_srcdir/tests/shell/lib.sh"	# old_syscall_kstack()
[ "$(id -u)" -eq 0 ] || { echo "needs root to load BPF programs"; exit 77; }
command -v cc >/dev/null || { echo "needs a C compiler (cc)"; exit 77; }
command -v go >/dev/null ||
	{ echo "needs go tool pprof (Debian: golang-go)"; exit 77; }
command -v readelf >/dev/null || { echo "needs readelf (binutils)"; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/calls.c" <<'C'
#include <unistd.h>

void __attribute__((noinline))
work(void)
{
	(void) getppid();
	__asm__ volatile("" ::: "memory");
}

static void __attribute__((noinline))
leaf(int n)
{
	for (int i = 0; i < n; i++)
		work();
	__asm__ volatile("" ::: "memory");
}

static void __attribute__((noinline))
mid(void)
{
	leaf(3);
	__asm__ volatile("" ::: "memory");
}

int
main(void)
{
	mid();
	leaf(2);
	return 0;
}
C
cc -O1 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls \
	-o "$tmp/calls" "$tmp/calls.c" || exit 1

prog='
pid$target::work:entry { @c[ustack()] = count(); }
pid$target::leaf:entry { @s[ustack()] = sum(arg0 * 10); }
syscall::getppid:entry /pid == $target/ { @k[execname, stack()] = count(); }'
# printa() each, after a line naming it, for the text to be split by.
ends='END { printf("== c\n"); printa(@c); printf("== s\n"); printa(@s);
	printf("== k\n"); printa(@k); }'

# Text printa() of a stack aggregation as lines "KEY;f1;f2;... value",
# frames innermost first without module or offset, equal lines added.
text_stacks() {
	awk -v agg="$1" '
	/^== / { on = ($2 == agg); next }
	!on { next }
	/^ *-?[0-9]+$/ { print line " " $1; line = ""; next }
	/^  [^ ]/ { sub(/^ +/, ""); sub(/ +$/, ""); line = "key1=" $0; next }
	/^              [^ ]/ {
		sub(/^ +/, ""); sub(/^[^`]*`/, ""); sub(/\+0x[0-9a-f]+$/, "")
		line = line (line == "" ? "" : ";") $0
	}' "$tmp/text" | sum_lines
}

# The same of go tool pprof -traces.
pprof_stacks() {
	go tool pprof -traces "$1" 2>/dev/null | awk '
	/^-+\+/ { if (line != "") print line " " val; line = ""; next }
	/^ *key[0-9]+: / { sub(/^ +/, ""); sub(/: +/, "="); lbl = lbl $0 ";"; next }
	/^ +-?[0-9]+ +[^ ]/ {
		val = $1; line = lbl $2; lbl = ""; next
	}
	/^ +[^ ]/ && line != "" { sub(/^ +/, ""); line = line ";" $0 }
	' | sum_lines
}

sum_lines() {
	awk '{ v = $NF; $NF = ""; s[$0] += v } END { for (k in s) print k s[k] }' |
		sort
}

"$DTRACE" -q -n "$prog $ends" -c "$tmp/calls" >"$tmp/text" 2>"$tmp/text.err" ||
	{ echo "FAIL: the text run failed: $(cat "$tmp/text.err")"; exit 1; }
"$DTRACE" -q -x oformat=pprof -o "$tmp/prof.pb.gz" -n "$prog $ends" \
	-c "$tmp/calls" >"$tmp/pp.out" 2>"$tmp/pp.err" ||
	{ echo "FAIL: the pprof run failed: $(cat "$tmp/pp.err")"; exit 1; }
[ -s "$tmp/pp.err" ] && { echo "FAIL: stderr: $(cat "$tmp/pp.err")"; fail=1; }
# Text output still prints, to stdout: the printf()s, not profiles.
[ "$(cat "$tmp/pp.out")" = "$(printf '== c\n== s\n== k')" ] ||
	{ echo "FAIL: text output: $(cat -A "$tmp/pp.out")"; fail=1; }

for a in c s k; do
	f=$tmp/prof.$a.1.pb.gz
	[ -s "$f" ] || { echo "FAIL: no $f: $(ls "$tmp")"; fail=1; continue; }
	want=$(text_stacks $a)
	got=$(pprof_stacks "$f")
	if [ "$a" = k ] && [ "$want" = "key1=calls 5" ] && old_syscall_kstack
	then
		echo "note: kernel $(uname -r) gives no kernel stack at" \
		    "syscall tracepoints: @k is not compared"
		continue
	fi
	[ -n "$want" ] || { echo "FAIL: no text of @$a"; fail=1; }
	[ "$got" = "$want" ] || {
		echo "FAIL: @$a: go tool pprof -traces gives"
		echo "$got"
		echo "where printa() gives"
		echo "$want"
		fail=1
	}
	total=$(awk '{ s += $NF } END { print s }' <<<"$want")
	top=$(go tool pprof -top "$f" 2>/dev/null)
	grep -q "Total samples = $total\b" <<<"$top" ||
		{ echo "FAIL: @$a: -top's total is not $total: $top"; fail=1; }
done
# The counts themselves, known from the program.
grep -qx 'work;leaf;mid;main;__libc_start_call_main;.* 3' \
	<(pprof_stacks "$tmp/prof.c.1.pb.gz") ||
	{ echo "FAIL: no work;leaf;mid;main 3 in @c"; fail=1; }
grep -qx 'leaf;mid;main;.* 30' <(pprof_stacks "$tmp/prof.s.1.pb.gz") ||
	{ echo "FAIL: no leaf;mid;main 30 in @s"; fail=1; }
top=$(go tool pprof -top "$tmp/prof.c.1.pb.gz" 2>/dev/null)
grep -qE '^ +5 +100% +100% +5 +100% +work$' <<<"$top" ||
	{ echo "FAIL: -top: work is not all 5 samples: $top"; fail=1; }
grep -q '^Type: samples$' <<<"$top" ||
	{ echo "FAIL: count() is not of type samples"; fail=1; }
grep -q '^Type: sum$' <(go tool pprof -top "$tmp/prof.s.1.pb.gz" 2>/dev/null) ||
	{ echo "FAIL: sum() is not of type sum"; fail=1; }

# Mappings: the program's path and build ID, and the kernel's.
raw=$(go tool pprof -raw "$tmp/prof.c.1.pb.gz" 2>/dev/null)
id=$(readelf -n "$tmp/calls" | awk '/Build ID:/ { print $3 }')
grep -qE "^1: 0x[0-9a-f]+/0x[0-9a-f]+/0x[0-9a-f]+ $tmp/calls $id \[FN\]$" \
	<<<"$raw" ||
	{ echo "FAIL: the program's mapping is not first with build ID $id: $raw"; fail=1; }
grep -qE '^[0-9]+: .* /[^ ]*/libc\.so\.6 [0-9a-f]{40} \[FN\]$' <<<"$raw" ||
	{ echo "FAIL: no mapping of libc.so.6 with its path and build ID"; fail=1; }

# The running kernel's build ID: the GNU note of /sys/kernel/notes.
kernel_build_id() {
	local b i n d t s id=
	read -ra b <<<"$(od -An -v -tx1 /sys/kernel/notes 2>/dev/null | tr '\n' ' ')"
	i=0
	while [ $((i + 12)) -le ${#b[@]} ]; do
		n=$((16#${b[i+3]}${b[i+2]}${b[i+1]}${b[i]}))
		d=$((16#${b[i+7]}${b[i+6]}${b[i+5]}${b[i+4]}))
		t=$((16#${b[i+11]}${b[i+10]}${b[i+9]}${b[i+8]}))
		s=$((i + 12 + ((n + 3) & ~3)))
		if [ "$t" = 3 ] && [ "$n" = 4 ] &&
		    [ "${b[*]:i+12:4}" = "47 4e 55 00" ]; then
			for ((j = s; j < s + d; j++)); do id+=${b[j]}; done
			echo "$id"
			return
		fi
		i=$((s + ((d + 3) & ~3)))
	done
}
if [ "$(text_stacks k)" != "key1=calls 5" ]; then
	kid=$(kernel_build_id)
	kraw=$(go tool pprof -raw "$tmp/prof.k.1.pb.gz" 2>/dev/null)
	if [ -z "$kid" ]; then
		echo "note: /sys/kernel/notes has no build ID here"
		grep -qE '^1: .* \[kernel\.kallsyms\] ' <<<"$kraw" ||
			{ echo "FAIL: no [kernel.kallsyms] mapping: $kraw"; fail=1; }
	else
		grep -qE "^1: .* \[kernel\.kallsyms\] $kid \[FN\]$" <<<"$kraw" ||
			{ echo "FAIL: no [kernel.kallsyms] mapping with $kid: $kraw"; fail=1; }
	fi
fi

# -x noresolve: pprof symbolises the program's frames from its file.
"$DTRACE" -q -x noresolve -x oformat=pprof -o "$tmp/nr.pb.gz" \
	-n 'pid$target::work:entry { @[ustack()] = count(); }' \
	-c "$tmp/calls" >/dev/null 2>"$tmp/nr.err" ||
	{ echo "FAIL: the noresolve run failed: $(cat "$tmp/nr.err")"; fail=1; }
grep -qE "^1: .* $tmp/calls $id *\$" \
	<(go tool pprof -symbolize=none -raw "$tmp/nr.pb.gz" 2>/dev/null) ||
	{ echo "FAIL: -x noresolve: the program's mapping says it has functions"; fail=1; }
nr=$(pprof_stacks "$tmp/nr.pb.gz" | sed 's/;\[[^]]*\]//g')
[ "$nr" = "$(printf 'work;leaf;main 2\nwork;leaf;mid;main 3')" ] || {
	echo "FAIL: -x noresolve: pprof's own symbols give"
	echo "$nr"
	fail=1
}

# Files: the end of the run writes each unprinted aggregation under its
# name, without a number, and says what it leaves out; a printa() in a
# tick clause writes a numbered series.
"$DTRACE" -q -x oformat=pprof -o "$tmp/end.pb.gz" -n "$prog"'
	pid$target::work:entry { @n[execname] = count(); @q = quantize(1); }' \
	-c "$tmp/calls" >/dev/null 2>"$tmp/end.err"
for a in c s k; do
	[ -s "$tmp/end.$a.pb.gz" ] || { echo "FAIL: no end.$a.pb.gz"; fail=1; }
done
[ "$(sort "$tmp/end.err")" = "dtrace: @n not written: a profile needs a stack() or ustack() key
dtrace: @q not written: a quantize() has no profile form" ] ||
	{ echo "FAIL: stderr of the end: $(cat "$tmp/end.err")"; fail=1; }
ls "$tmp"/end.[nq]* >/dev/null 2>&1 &&
	{ echo "FAIL: a file for @n or @q"; fail=1; }
# (A '.' in a directory's name is not the file's.)
mkdir "$tmp/d.x"
"$DTRACE" -q -x oformat=pprof -o "$tmp/d.x/series" -n '
	profile-97 { @[stack()] = count(); }
	tick-200ms { printa(@); }
	tick-700ms { exit(0); }' >/dev/null 2>"$tmp/series.err" ||
	{ echo "FAIL: the series failed: $(cat "$tmp/series.err")"; fail=1; }
for n in 1 2 3; do
	go tool pprof -top "$tmp/d.x/series.$n" >/dev/null 2>&1 ||
		{ echo "FAIL: no profile series.$n: $(ls "$tmp/d.x")"; fail=1; }
done
[ -e "$tmp/d.x/series" ] &&
	{ echo "FAIL: series written unnumbered too"; fail=1; }

# Refused before tracing starts, with one line.
"$DTRACE" -q -x oformat=pprof -n 'BEGIN { @[ustack()] = count(); exit(0); }' \
	>/dev/null 2>"$tmp/no-o.err" && { echo "FAIL: ran without -o"; fail=1; }
[ "$(cat "$tmp/no-o.err")" = "dtrace: could not enable tracing: -x oformat=pprof writes each profile to a file: name it with -o FILE" ] ||
	{ echo "FAIL: without -o: $(cat "$tmp/no-o.err")"; fail=1; }
"$DTRACE" -q -x oformat=pprof -o "$tmp/none/p.pb.gz" \
	-n 'BEGIN { @[ustack()] = count(); exit(0); }' \
	>/dev/null 2>"$tmp/nodir.err" && { echo "FAIL: ran with -o in no directory"; fail=1; }
[ "$(cat "$tmp/nodir.err")" = "dtrace: could not enable tracing: -o $tmp/none/p.pb.gz: cannot write profiles in $tmp/none: No such file or directory" ] ||
	{ echo "FAIL: -o in no directory: $(cat "$tmp/nodir.err")"; fail=1; }

[ $fail -eq 0 ] || { echo "text run:"; cat "$tmp/text"; }
exit $fail

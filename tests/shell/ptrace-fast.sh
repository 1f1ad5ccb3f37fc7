#!/bin/bash
# SPDX-License-Identifier: MIT
# ptrace-fast.sh: pid entry probes that only count, patched with a jump
# to a counting trampoline in the target instead of a breakpoint
# (os/linux/ptrace/dt_ptrace_fast.c), as a user without privilege.
#
# Checked (tests/shell/data/ptrace-fast.c):
#  - 1,000,000 calls counted exactly, with the program's output and exit
#    status as untraced, and quickly: at ~10 µs a breakpoint this would
#    take over 10 s, and the program sees its function start with a jmp;
#  - with -x followfork, breakpoints (a fork child's counters go unread);
#  - four threads x N calls: 4N exactly;
#  - @[probefunc] over several functions: exact counts each, among them
#    one whose first 5 bytes hold a branch target (it keeps its
#    breakpoint) and one starting with RIP-relative instructions (fixed
#    up in the copy); on arm64, one starting with a pc-relative
#    instruction and one with a landing pad (both keep breakpoints);
#  - every entry of a program and of libc: the same as breakpoints;
#  - a fork child (no followfork) gets its original bytes back;
#  - exit() at another probe: the calls counted before it all printed;
#  - a clause with a predicate keeps the breakpoint and counts exactly;
#  - -p, then the tracing dtrace SIGKILLed (the child of the dtrace
#    started, cmd/dtrace_guard.c, as the OOM killer would pick it): the
#    process runs on to its end correctly, through the trampoline left
#    behind.
set -u

command -v cc >/dev/null || { echo "needs a C compiler (cc)"; exit 77; }
# How bench_a, bench_b and bench_c start while traced (ptrace-fast.c):
# on arm64, bench_b's first instruction is pc-relative and bench_c's a
# landing pad, and both keep their breakpoints.
case $(uname -m) in
x86_64) peek="a jmp b brk c jmp" ;;
aarch64) peek="a jmp b brk c brk" ;;
*) echo "counting trampolines are x86-64's and arm64's"; exit 77 ;;
esac

tmp=$(mktemp -d)
trap 'touch "$tmp/go"; rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
# -O0: bench_a starts with push, mov, mov (three instructions displaced;
# on arm64, sub sp).
cc -O0 -pthread -o "$tmp/f" "$top_srcdir/tests/shell/data/ptrace-fast.c" ||
    exit 1

. "$top_srcdir/tests/shell/data/as-nobody.sh"
run() { user "${dt[@]}" -x engine=ptrace "$@"; }

# One million calls: exact, the output as untraced, and fast.
n=1000000
plain=$(user ./f loop $n)
start=$(date +%s)
got=$(run -c "./f loop $n" -n 'pid$target::bench_a:entry { @ = count(); }
    END { printa("@ %@d\n", @); }' 2>"$tmp/err")
secs=$(($(date +%s) - start))
# Not -q: dtrace says how the program ended.
check "1000000 calls counted" "@ $n" "$(echo "$got" | grep -o '@ [0-9]*')"
check "the program's output" "$plain" "$(echo "$got" | sed -n 1p)"
check "the program's exit status" "dtrace: pid N has exited" \
    "$(sed -n 's/pid [0-9]* has/pid N has/p' "$tmp/err")"
if [ "$secs" -lt 8 ]; then
	echo "ok: counted without a stop per call (${secs} s)"
else
	check "time for $n calls (s)" "< 8" "$secs"
fi
got=$(run -q -c "./f peek" -n 'pid$target::bench_*:entry { @ = count(); }')
check "how the functions start while traced" "$peek" \
    "$(echo "$got" | grep '^a ')"
got=$(run -q -x followfork -c "./f peek" -n 'pid$target::bench_*:entry
    { @ = count(); }')
check "with followfork, breakpoints" "a brk b brk c brk" \
    "$(echo "$got" | grep '^a ')"

# Four threads.
n=50000
got=$(run -q -c "./f threads $n" -n 'pid$target::bench_a:entry
    { @ = count(); } END { printa("@ %@d\n", @); }')
check "four threads x $n calls" "@ $((4 * n))" "$(echo "$got" | grep '^@ ')"
check "the threaded program's output" "$(user ./f threads $n)" \
    "$(echo "$got" | grep -v -e '^@ ' -e '^$')"

# Per function: patched, kept on a breakpoint, RIP-relative.
n=40000
got=$(run -q -c "./f loop $n" -n 'pid$target::bench_*:entry
    { @[probefunc] = count(); } END { printa("@ %s %@d\n", @); }')
check "per-function counts" "@ bench_a $n
@ bench_b $((n / 2))
@ bench_c $((n / 4))" "$(echo "$got" | grep '^@ ' | sort)"
check "the program's output, RIP-relative copies" "$(user ./f loop $n)" \
    "$(echo "$got" | grep -v -e '^@ ' -e '^$')"
# The same output as the breakpoints give (a predicate keeps them).
want=$(run -q -c "./f loop $n" -n 'pid$target::bench_*:entry /1/
    { @[probefunc] = count(); }' | grep -v '^[0-9]')
got=$(run -q -c "./f loop $n" -n 'pid$target::bench_*:entry
    { @[probefunc] = count(); }' | grep -v '^[0-9]')
check "output as with breakpoints" "$want" "$got"

# Every entry of a program and of libc (qsort calling back, string
# functions, a fork): counts and output as with breakpoints.
cc -O1 -fno-inline -pthread -o "$tmp/t" \
    "$top_srcdir/tests/shell/data/ptrace-target.c" || exit 1
all='pid$target:libc.so.6::entry,pid$target:a.out::entry'
run -q -c "./t mix 10" -n "$all /1/ { @[probefunc] = count(); }" \
    >"$tmp/slow.out" 2>&1
run -q -c "./t mix 10" -n "$all { @[probefunc] = count(); }" \
    >"$tmp/fast.out" 2>&1
check "every entry of a.out and libc: as with breakpoints" \
    "$(cat "$tmp/slow.out")" "$(cat "$tmp/fast.out")"
nf=$(grep -c '^ *[a-z_0-9]* *[0-9]*$' "$tmp/fast.out")
[ "$nf" -gt 10 ] || check "functions counted" "> 10" "$nf"

# A fork child without followfork runs its original code, uncounted.
got=$(run -q -c "./f fork $n" -n 'pid$target::bench_a:entry
    { @ = count(); } END { printa("@ %@d\n", @); }')
check "fork: the parent's calls counted" "@ $n" "$(echo "$got" | grep '^@ ')"
# The child's bench_a starts as it did ("orig"), no jmp left in it.
check "fork: the output, the child's code restored" "$(user ./f fork $n)" \
    "$(echo "$got" | grep -v -e '^@ ' -e '^$')"

# exit() at a breakpoint: every call counted before it is in the count
# (bench_b, on a breakpoint, is first called after every bench_a call).
got=$(run -q -c "./f loop $n" -n 'pid$target::bench_a:entry { @ = count(); }
    pid$target::bench_b:entry { exit(0); } END { printa("@ %@d\n", @); }')
check "the calls counted before an exit()" "@ $n" "$(echo "$got" | grep '^@ ')"

# A predicate: the breakpoint, exact still.
got=$(run -q -c "./f loop $n" -n 'pid$target::bench_a:entry /arg0 % 2 == 0/
    { @ = count(); } END { printa("@ %@d\n", @); }')
check "a predicate, on a breakpoint" "@ $((n / 2))" \
    "$(echo "$got" | grep '^@ ')"

# -p, then SIGKILL: the process keeps working through the trampoline.
(cd "$tmp" && exec "${as_user[@]}" ./f wait go 100000 >"$tmp/w.out") &
wpid=$!
(cd "$tmp" && exec "${as_user[@]}" "${dt[@]}" -x engine=ptrace -q \
    -p "$wpid" -n 'pid$target::bench_a:entry { @ = count(); }
    tick-50ms { printf("up\n"); }' >"$tmp/d.out" 2>&1) &
dpid=$!
for ((i = 0; i < 200; i++)); do
	grep -q up "$tmp/d.out" 2>/dev/null && break
	sleep 0.1
done
check "dtrace attached" up "$(grep -m1 up "$tmp/d.out")"
kill -KILL "$(cat /proc/"$dpid"/task/*/children | tr -d ' ')"
wait "$dpid" 2>/dev/null
touch "$tmp/go"
wait "$wpid"
check "the process after dtrace was SIGKILLed: status" 0 "$?"
# Still patched: it ran its last calls through the trampoline.
n=100000
check "the process after dtrace was SIGKILLed: output" \
    "$((3 * n * (n - 1) / 2 + n)) jmp" "$(cat "$tmp/w.out")"
exit $fail

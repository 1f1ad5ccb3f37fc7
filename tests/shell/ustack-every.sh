#!/bin/bash
# SPDX-License-Identifier: MIT
# ustack-every.sh: user stacks outside pid and USDT probes on the BPF
# engine, through CFI, in the program of ustack-cfi.sh (built as Debian
# builds, without frame pointers): at a system call made in c() of main
# -> a -> b -> c, every frame in order at syscall, sdt and rawtp probes
# (ustackdepth and ucaller agreeing), counted exactly as an aggregation
# key; profile-N's hottest stack in a CPU-bound function called from c();
# the same in a child that a script forks and that execs the program
# (-x followfork), and in a target that execs it; through a library
# loaded with dlopen() while tracing; and with the kernel features
# hidden, the frame-pointer walk as before.
set -u

[ "$(id -u)" -eq 0 ] || { echo "needs root to load BPF programs"; exit 77; }
command -v cc >/dev/null || { echo "needs a C compiler (cc)"; exit 77; }
. "$top_srcdir/tests/shell/lib.sh"
need_features task_pt_regs map_in_map bpf_loop cpu_clock

# getppid's system call number, which raw_syscalls' probes see
case $(uname -m) in
x86_64) nr=110 ;;
aarch64) nr=173 ;;
*) echo "getppid's system call number on $(uname -m) is not known here"
	exit 77 ;;
esac

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cflags=(-O2 -fomit-frame-pointer -fasynchronous-unwind-tables)
cc "${cflags[@]}" -o "$tmp/nofp" "$top_srcdir/tests/shell/data/ustack-nofp.c" &&
    cc "${cflags[@]}" -shared -fPIC -o "$tmp/libhop.so" \
    "$top_srcdir/tests/shell/data/ustack-hop.c" || exit 1

# Frame lines with offsets blanked and indentation dropped.
shape() {
	sed -e 's/+0x[0-9a-f]*$/+0x../' -e 's/^ *//'
}

dt=("$DTRACE" -x engine=bpf -q)
chain='libc.so.6`getppid+0x..
nofp`c+0x..
nofp`b+0x..
nofp`a+0x..
nofp`main+0x..'

# One system call, seen by three kinds of probe; then its depth and caller.
out=$("${dt[@]}" -c "$tmp/nofp 1 s" -n '
    syscall::getppid:entry /pid == $target/ {
	printf("syscall\n"); ustack(5);
	printf("%d %A\n", ustackdepth, ucaller); ustack(); }
    sdt:raw_syscalls::sys_enter /pid == $target && arg0 == '$nr'/ {
	printf("sdt\n"); ustack(5); }
    rawtp:raw_syscalls::sys_enter /pid == $target && arg1 == '$nr'/ {
	printf("rawtp\n"); ustack(5); }' 2>&1)
# The lines after the line $1 up to the next probe's name.
after() {
	printf '%s\n' "$out" | awk -v l="$1" '
	    /^(syscall|sdt|rawtp)$/ { on = 0 } on { print } $0 == l { on = 1 }'
}
for p in syscall sdt rawtp; do
	got=$(after "$p" | shape | grep '`' | head -5)
	check "$p: the frames from getppid() to main" "$chain" "$got"
done
line=$(printf '%s\n' "$out" | grep -E '^[0-9]+ ')
depth=${line%% *}
nframes=$(after "$line" | grep -c '`')
check "ustackdepth = frames of ustack() (>= 5)" "$nframes yes" \
    "$depth $([ "$depth" -ge 5 ] && echo yes)"
check "ucaller = c()" 'nofp`c+0x..' "$(printf '%s\n' "${line#* }" | shape)"

# As an aggregation key: one stack, counted exactly.
got=$("${dt[@]}" -c "$tmp/nofp 3 s" -n 'syscall::getppid:entry
    /pid == $target/ { @[ustack(5)] = count(); }' 2>&1 | shape | grep .)
check "@[ustack(5)] = count() at syscall::getppid:entry" "$chain
3" "$got"

# profile-N: the hottest stack is spin() called from c().
hot='nofp`spin+0x..
nofp`c+0x..
nofp`b+0x..
nofp`a+0x..
nofp`main+0x..'
hottest() {
	shape | grep . | sed '$d' | tail -5
}
got=$("${dt[@]}" -c "$tmp/nofp 40 p" -n 'profile-997 /pid == $target/ {
    @[ustack(5)] = count(); } END { trunc(@, 1); }' 2>&1 | hottest)
check "profile-997: the hottest stack" "$hot" "$got"

# A child the target forks, which execs the program (-x followfork); and
# a target that execs it: the rows are those of the new image.
printf '#!/bin/sh\n"%s" 40 p\ntrue\n' "$tmp/nofp" >"$tmp/fork.sh"
printf '#!/bin/sh\nexec "%s" 40 p\n' "$tmp/nofp" >"$tmp/exec.sh"
chmod +x "$tmp/fork.sh" "$tmp/exec.sh"
got=$("${dt[@]}" -x followfork -c "$tmp/fork.sh" -n 'profile-997
    /execname == "nofp"/ { @[ustack(5)] = count(); } END { trunc(@, 1); }' \
    2>&1 | hottest)
check "followfork: a forked child's exec" "$hot" "$got"
got=$("${dt[@]}" -c "$tmp/exec.sh" -n 'profile-997 /pid == $target/ {
    @[ustack(5)] = count(); } END { trunc(@, 1); }' 2>&1 | hottest)
check "the target's exec" "$hot" "$got"

# A library loaded later (dlopen): its rows come with it.  The program
# calls through it every 2 ms, 100 times; dtrace reads the new rows in a
# few milliseconds, without stopping the process.  The calls before
# they are read (more of them in an emulated machine) stop at hop(), so
# the stack looked for is one of those counted, not the hottest.
want="$(printf '%s\n' "$chain" | sed '$d')
libhop.so\`hop+0x..
nofp\`main+0x.."
got=$("${dt[@]}" -c "$tmp/nofp 100 d $tmp/libhop.so" -n 'syscall::getppid:entry
    /pid == $target/ { @[ustack(6)] = count(); }' 2>&1 | shape |
    awk -v want="$want" 'BEGIN { RS = "" }
	{ sub(/\n[0-9]+$/, ""); if ($0 == want) found = 1; else print }
	END { if (found) print want }' | tail -n 6)
check "dlopen: the library's frame" "$want" "$got"

# Without the kernel features: frame pointers, which find the first
# frame only here (whatever follows is not c()).
for nf in task_pt_regs map_in_map; do
	got=$(DTRACE_LINUX_NOFEATURE=$nf "${dt[@]}" -c "$tmp/nofp 1 s" \
	    -n 'syscall::getppid:entry /pid == $target/ { ustack(); }' 2>&1 |
	    shape | grep .)
	first=$(printf '%s\n' "$got" | sed -n 1p)
	second=$(printf '%s\n' "$got" | sed -n 2p)
	check "without $nf: frame pointers" 'libc.so.6`getppid+0x.. fp' \
	    "$first $([ "$second" != 'nofp`c+0x..' ] && echo fp)"
done

exit $fail

#!/bin/bash
# SPDX-License-Identifier: MIT
# fbt-guest.sh DTRACE HELPER: the fbt provider's tests, run as root inside
# a kernel lab guest (tests/klab/run-fbt.sh boots it) on a kernel that has
# fentry and kprobes.  Each check prints "ok: ..." or "FAIL: ...", then a
# summary; the exit status is the number of failures (at most 125).
#
# Once with fentry/fexit, once with the kprobe fallback
# (DTRACE_LINUX_NOFEATURE=fentry makes fentry look missing), one dtrace
# run traces HELPER, which opens a path that does not exist N times:
#   - fbt::do_sys_openat2:entry and :return fire exactly N times for it;
#   - typed arguments: args[0] (int dfd) is AT_FDCWD (-100, sign-extended),
#     args[2]->flags (struct open_how *) has O_WRONLY|O_APPEND;
#   - return: arg0 is -1 (no return offset under fexit or kretprobes),
#     arg1 the return value -2 (ENOENT);
#   - stack() starts at the caller: no BPF or trampoline frame, not
#     do_sys_openat2 itself, the system call entry below; caller is
#     that first frame, at entry and at return;
#   - do_mmap's arguments, 8 or 9 of them (past the sixth on the stack
#     for kprobes; 6.1 takes no fentry on a function with more than six:
#     the kprobe fallback);
#   - a module's function (9p, which the guest's files are on) fires;
#   - the mechanism: the kernel's kprobe list names do_sys_openat2 only
#     in the kprobe run.
# And: dtrace -l lists thousands of fbt probes; -lv shows BTF types; the
# suite's tests/shell/fbt.sh passes.
set -u

D=$1
HELPER=$2
N=${FBT_N:-500}
path=/nonexistent/fbt-lab
pass=0
fail=0
ok() { echo "ok: $*"; pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
check() {
	local what=$1
	shift
	if "$@"; then ok "$what"; else bad "$what"; fi
}

echo "kernel $(uname -r)"
mount -t debugfs none /sys/kernel/debug 2>/dev/null

t0=$(date +%s.%N)
nfbt=$("$D" -l -P fbt | wc -l)
t1=$(date +%s.%N)
echo "dtrace -l -P fbt: $nfbt lines in $(echo "$t1 - $t0" | bc) s"
check "dtrace -l -P fbt lists thousands of probes ($nfbt)" \
    test "$nfbt" -ge 2000

lv=$("$D" -lv -n fbt::do_sys_openat2:entry -n fbt::do_sys_openat2:return 2>&1)
check "-lv: args[2] of do_sys_openat2:entry is struct open_how *" \
    grep -q 'args\[2\]: struct open_how \*' <<<"$lv"
check "-lv: args[1] of do_sys_openat2:return is long" \
    grep -q 'args\[1\]: long' <<<"$lv"

script='
fbt::do_sys_openat2:entry
/pid == $target && copyinstr(arg1) == "'$path'"/
{
	@entry = count();
	@dfd[args[0]] = count();
	@flags[args[2]->flags & 0x403] = count();
	self->in = 1;
}

fbt::do_sys_openat2:return
/self->in && !rdone/
{
	rdone = 1;
	printf("rcaller: %a\n", caller);
}

fbt::do_sys_openat2:return
/self->in/
{
	@ret[arg0, arg1] = count();
	self->in = 0;
}

fbt::do_sys_openat2:entry
/pid == $target && !done && copyinstr(arg1) == "'$path'"/
{
	done = 1;
	printf("stack:\n");
	stack();
	printf("caller: %a\n", caller);
	printf("depth: %d\n", stackdepth);
}

fbt::do_mmap:entry
/pid == $target && args[2] == 0x7000/
{
	@mmap[args[3], args[4], arg5, arg6] = count();
}

fbt:9p:v9fs_vfs_getattr*:entry
/pid == $target/
{
	@mod = count();
}

END
{
	printa("entry %@d\n", @entry);
	printa("dfd %d %@d\n", @dfd);
	printa("flags %x %@d\n", @flags);
	printa("ret %d %d %@d\n", @ret);
	printa("mod %@d\n", @mod);
	printa("mmap %d %x %d %d %@d\n", @mmap);
}'

for mode in fentry kprobe; do
	nofeat=
	[ "$mode" = kprobe ] && nofeat=fentry
	t0=$(date +%s.%N)
	out=$(DTRACE_LINUX_NOFEATURE=$nofeat "$D" -q -n "$script" \
	    -c "$HELPER $path $N" 2>&1)
	t1=$(date +%s.%N)
	echo "--- $mode: dtrace run of $(echo "$t1 - $t0" | bc) s"
	echo "$out"
	echo "---"
	check "$mode: entry fired $N times" grep -qx "entry $N" <<<"$out"
	check "$mode: return arg0 -1, arg1 -2 (ENOENT), $N times" \
	    grep -qx -- "ret -1 -2 $N" <<<"$out"
	check "$mode: args[0] is AT_FDCWD (-100)" \
	    grep -qx -- "dfd -100 $N" <<<"$out"
	check "$mode: args[2]->flags has O_WRONLY|O_APPEND" \
	    grep -qx "flags 401 $N" <<<"$out"
	# pgoff 3 is arg5 on 6.1, arg6 (on the stack) since vm_flags came.
	check "$mode: do_mmap (8+ arguments): prot, flags, pgoff" \
	    grep -qE '^mmap 1 2 (3 -?[0-9]+|-?[0-9]+ 3) 1$' <<<"$out"
	check "$mode: a module's function (9p) fired" \
	    grep -qE '^mod [1-9][0-9]*$' <<<"$out"
	first=$(sed -n '/^stack:$/,/^caller:/{/^ *vmlinux`/p;}' <<<"$out" |
	    head -n 1 | sed 's/^ *//')
	frames=$(sed -n '/^stack:$/,/^caller:/p' <<<"$out")
	check "$mode: stack() starts at the caller ($first)" \
	    grep -qE '^vmlinux`[A-Za-z0-9_]+\+0x[0-9a-f]+$' <<<"$first"
	check "$mode: no BPF frame, nor do_sys_openat2 itself, on top" \
	    bash -c '! grep -qE "bpf_|do_sys_openat2" <<<"$1"' _ "$first"
	check "$mode: the system call entry is on the stack" \
	    grep -q 'entry_SYSCALL_64' <<<"$frames"
	check "$mode: caller is the first frame" \
	    grep -qx "caller: $first" <<<"$out"
	check "$mode: caller at return is the caller too" \
	    grep -qx "rcaller: $first" <<<"$out"
	if [ "$mode" = kprobe ]; then
		check "kprobe: the kprobes traced do_sys_openat2" \
		    grep -qE '^kprobes: [1-9]' <<<"$out"
	else
		check "fentry: no kprobe was used" \
		    grep -qx 'kprobes: 0' <<<"$out"
	fi
done

# The test suite's own fbt test, which takes the other branch here.
check "tests/shell/fbt.sh" env DTRACE="$D" \
    bash "$(dirname "$0")/../shell/fbt.sh"

echo "fbt lab on $(uname -r): $pass passed, $fail failed"
[ "$fail" -gt 125 ] && fail=125
exit "$fail"

#!/bin/bash
# SPDX-License-Identifier: MIT
# kernel-stack.sh: kernel stacks and symbols through the BPF engine and
# dtrace(1), on the running kernel.  Exact frames depend on the kernel, so
# the frames are checked by shape and against each other:
#   - stack() at syscall::getppid:entry: every frame "vmlinux`func+0xoff"
#     indented 14 columns, the syscall entry path present, none of the
#     tracepoint's own glue; stackdepth counts those frames and caller is
#     the second one; stack(2), stack(40) and stack(125) the same frames
#     (the first two), each copied its own way past the glue;
#   - @[stack()] = count(): the frames, then the count of calls made;
#   - profile-N: arg0 is the interrupted kernel PC, so %a of it is the
#     first frame of stack(), and sym()/mod() name the same function;
#   - %a, sym(), func(), mod() of a function's address from kallsyms;
#   - at proc:::exec and an sdt probe, the first frame is the function
#     that fired it, not the tracing machinery.
set -u

. "$top_srcdir/tests/shell/lib.sh"	# old_syscall_kstack()
[ "$(id -u)" -eq 0 ] || { echo "needs root to load BPF programs"; exit 77; }
command -v cc >/dev/null || { echo "needs a C compiler (cc)"; exit 77; }

tmp=$(mktemp -d)
dpid=
trap '[ -n "$dpid" ] && kill "$dpid" 2>/dev/null; rm -rf "$tmp"' EXIT
fail() {
	echo "FAIL: $*"
	for f in "$tmp"/out* "$tmp"/err*; do
		[ -s "$f" ] && { echo "--- $f"; cat "$f"; }
	done
	exit 1
}

cat >"$tmp/gpstack.c" <<'C'
#include <stdlib.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 0;

	for (long i = 0; i < n; i++)
		(void) getppid();
	return 0;
}
C
cc -O2 -o "$tmp/gpstack" "$tmp/gpstack.c" || exit 1

# Start dtrace with a script, wait until BEGIN has printed "ready".
start() {
	local out=$1
	shift
	"$DTRACE" "$@" >"$out" 2>"$out.err" &
	dpid=$!
	for _ in $(seq 100); do
		grep -q ready "$out" && return 0
		sleep 0.1
	done
	fail "dtrace did not start"
}

frame='^ {14}vmlinux`[A-Za-z0-9_.$]+\+0x[0-9a-f]+$'

# 1. stack(), stackdepth, caller at a syscall entry.
start "$tmp/out1" -q -n 'BEGIN { printf("ready\n"); }
    syscall::getppid:entry /execname == "gpstack"/ {
	printf("<");
	stack();
	printf(">\n<2");
	stack(2);
	printf(">\n<40");
	stack(40);
	printf(">\n<125");
	stack(125);
	printf(">\ndepth %d\ncaller %a\n", stackdepth, caller);
	exit(0);
    }'
"$tmp/gpstack" 1
wait "$dpid" || fail "dtrace exited with $?"
dpid=
frames=$(sed -n '/^<$/,/^>$/p' "$tmp/out1" | sed '1d;$d')
# Where an older kernel gives no kernel stack at syscall tracepoints, the
# syscall frames are left out, and the rest is checked.
sysframes=true
if [ -z "$frames" ]; then
	old_syscall_kstack ||
		fail "no kernel frames at syscall::getppid:entry"
	sysframes=false
	n=0
	echo "note: kernel $(uname -r) gives no kernel stack at syscall" \
	    "tracepoints (it passes them the user registers); the syscall" \
	    "frames are left out"
	grep -qx "depth 0" "$tmp/out1" || fail "stackdepth is not 0"
fi
if $sysframes; then
	bad=$(grep -Ev "$frame" <<<"$frames")
	[ -z "$bad" ] || fail "frames not as module\`function+0xoffset: $bad"
	grep -Eq 'do_syscall_64|entry_SYSCALL|invoke_syscall|el0_svc' \
	    <<<"$frames" ||
		fail "the syscall entry path is missing"
	if grep -Eq '`(perf_|__traceiter_|__bpf_trace|bpf_|trace_call_bpf)' \
	    <<<"$frames"; then
		fail "the tracepoint's own frames were not skipped"
	fi
	n=$(wc -l <<<"$frames")
	grep -qx "depth $n" "$tmp/out1" || fail "stackdepth is not $n"
	second=$(sed -n 2p <<<"$frames" | sed 's/^ *//')
	grep -qxF "caller $second" "$tmp/out1" ||
		fail "caller is not $second"
	# stack(N): with the glue, up to 32 frames are copied inline from
	# one walk, more by a helper, and past 121 walked again
	for k in 2 40 125; do
		want=$frames
		[ "$k" = 2 ] && want=$(head -2 <<<"$frames")
		got=$(sed -n "/^<$k\$/,/^>\$/p" "$tmp/out1" | sed '1d;$d')
		[ "$got" = "$want" ] || fail "stack($k) is not stack()'s frames"
	done
fi

# 2. Stacks as aggregation keys: the frames, then the count.
start "$tmp/out2" -q -n 'BEGIN { printf("ready\n"); }
    syscall::getppid:entry /execname == "gpstack"/ { @[stack()] = count(); }'
"$tmp/gpstack" 1234
kill -INT "$dpid"
wait "$dpid" || fail "dtrace exited with $?"
dpid=
total=$(grep -E '^ +[0-9]+$' "$tmp/out2" | awk '{ s += $1 } END { print s }')
[ "$total" = 1234 ] || fail "counted $total calls in stack keys, not 1234"
! $sysframes || grep -Eq "$frame" "$tmp/out2" ||
	fail "no frames in the aggregation keys"
grep -Ev "$frame" "$tmp/out2" | grep -Evq '^( +[0-9]+|ready|)$' &&
	fail "unexpected lines in the aggregation"

# 3. profile: arg0 is the first frame of the interrupted kernel code.
# Another CPU may sample before exit() takes effect: each sample ends its
# last line, so the first one's five lines stay whole.
"$DTRACE" -q -n 'profile-997 /arg0 != 0/ {
	printf("%a\n", arg0); stack(1); sym(arg0); printf("\n"); mod(arg0);
	printf("\n");
	exit(0);
    }' >"$tmp/out3" 2>"$tmp/err3" &
dpid=$!
# Keep the kernel busy so that some sample lands in it.
end=$((SECONDS + 20))
while kill -0 "$dpid" 2>/dev/null && [ $SECONDS -lt $end ]; do
	"$tmp/gpstack" 20000
done
wait "$dpid" || fail "dtrace exited with $?"
dpid=
a=$(sed -n 1p "$tmp/out3")
f=$(sed -n 3p "$tmp/out3" | sed 's/^ *//')
s=$(sed -n 4p "$tmp/out3" | sed 's/^ *//; s/ *$//')
m=$(sed -n 5p "$tmp/out3" | sed 's/^ *//; s/ *$//')
[ -n "$a" ] && [ "$a" = "$f" ] || fail "%a of arg0 ($a) is not stack(1) ($f)"
[ "$s" = "${a%+0x*}" ] || fail "sym(arg0) ($s) is not ${a%+0x*}"
[ "$m" = "${a%%\`*}" ] || fail "mod(arg0) ($m) is not ${a%%\`*}"

# 4. %a and friends of a known function's address, from kallsyms: the
# system call path's (x86-64: do_syscall_64; arm64: invoke_syscall).
case $(uname -m) in
aarch64) fn=invoke_syscall ;;
*) fn=do_syscall_64 ;;
esac
addr=$(awk -v fn="$fn" '$3 == fn && $2 ~ /^[Tt]$/ { print $1; exit }' \
    /proc/kallsyms)
[ -n "$addr" ] && [ "$addr" != 0000000000000000 ] ||
	{ echo "$fn is not in /proc/kallsyms"; exit 77; }
"$DTRACE" -q -n "BEGIN {
	printf(\"%a|%a|\", 0x$addr, 0x$addr + 0x10);
	sym(0x$addr + 0x10); func(0x$addr); mod(0x$addr + 1);
	exit(0);
    }" >"$tmp/out4" 2>"$tmp/err4" || fail "dtrace exited with $?"
want=$(printf "vmlinux\`$fn|vmlinux\`$fn+0x10|  %-50s  %-50s  %-50s" \
    "vmlinux\`$fn" "vmlinux\`$fn" vmlinux)
[ "$(cat "$tmp/out4")" = "$want" ] || fail "symbols of $fn"

# 5. At a tracepoint (a raw one under proc:::exec, a perf one under an
# sdt probe), the stack starts at the kernel function that fired the
# probe, none of the tracing machinery's frames above it.
glue='`(perf_trace|perf_tp|__traceiter_|__bpf_trace|bpf_|trace_call_bpf|trace_event_raw)'
printf '#!/bin/sh\n"%s" 0\n:\n' "$tmp/gpstack" >"$tmp/run.sh"
chmod +x "$tmp/run.sh"
for p in 'proc:::exec' 'sdt:::sched_process_exec'; do
	"$DTRACE" -q -c "$tmp/run.sh" -n "$p /progenyof(\$target)/ {
		printf(\"<\n\"); stack(); printf(\">\n\"); exit(0); }" \
	    >"$tmp/out5" 2>"$tmp/err5" || fail "$p: dtrace exited with $?"
	frames=$(sed -n '/^<$/,/^>$/p' "$tmp/out5" | sed '1d;$d;/^$/d')
	# Where proc:::exec is a syscall tracepoint (kernels without
	# sched_prepare_exec), the same holds as for syscall probes.
	if [ -z "$frames" ] && [ "$p" = proc:::exec ] && ! $sysframes &&
	    ! "$DTRACE" -l -n proc:::exec 2>/dev/null |
	    grep -q ' sched_prepare_exec  *exec$'; then
		echo "note: proc:::exec is a syscall tracepoint here; its" \
		    "frames are left out"
		continue
	fi
	[ -n "$frames" ] || fail "$p: no kernel frames"
	bad=$(grep -Ev "$frame" <<<"$frames")
	[ -z "$bad" ] || fail "$p: frames not as module\`function+0xoffset: $bad"
	grep -Eq "$glue" <<<"$frames" &&
		fail "$p: the tracing machinery's frames were not skipped"
	grep -Eq 'execve' <<<"$frames" || fail "$p: the exec path is missing"
done

echo "kernel stacks: $n frames at getppid entry, first sample at $a"

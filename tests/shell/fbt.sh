#!/bin/bash
# SPDX-License-Identifier: MIT
# fbt.sh: the fbt provider on the running kernel, and what dtrace(1) says
# where it cannot have one.  (Its probes firing, with typed arguments and
# stacks, are tested on kernels with fentry and kprobes by
# tests/klab/run-fbt.sh, in the kernel lab.)
#
#   - With fentry and kprobes made to look missing
#     (DTRACE_LINUX_NOFEATURE), no fbt probe is listed, and a script
#     naming one fails with DTrace's "does not match any probes", then
#     one line saying why, naming both mechanisms.
#   - As the kernel is: either fbt probes are listed (thousands, each
#     with an entry and a return probe) and vfs_read's are typed from
#     BTF, or there are none and the same two lines say why (the
#     development VM's kernel refuses fentry and has no kprobes).
#   - Other providers' failures carry no fbt line.
set -u

[ "$(id -u)" -eq 0 ] || { echo "needs root (BPF)"; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
	echo "FAIL: $*"
	for f in "$tmp"/*; do
		[ -s "$f" ] && { echo "--- $f"; cat "$f"; }
	done
	exit 1
}

script='fbt::vfs_read:entry { trace(arg0); }'
nomatch='dtrace: invalid probe specifier fbt::vfs_read:entry { trace(arg0); }: probe description fbt::vfs_read:entry does not match any probes'

# The failure and its reason: exit 1, exactly two lines.
unavailable() {
	local err=$1
	[ "$(sed -n 1p "$err")" = "$nomatch" ] ||
	    fail "first line is not the no-match error"
	sed -n 2p "$err" | grep -qE '^dtrace: fbt probes unavailable: .*fentry.* and .*kprobe' ||
	    fail "second line does not say why fbt is unavailable"
	[ "$(wc -l <"$err")" -eq 2 ] || fail "more than two lines"
}

DTRACE_LINUX_NOFEATURE=fentry,kprobe "$DTRACE" -n "$script" \
    >"$tmp/out1" 2>"$tmp/err1"
[ $? -eq 1 ] || fail "naming fbt without fentry or kprobes: not exit 1"
unavailable "$tmp/err1"
DTRACE_LINUX_NOFEATURE=fentry,kprobe "$DTRACE" -l >"$tmp/list1" 2>&1 ||
    fail "dtrace -l failed"
awk '$2 == "fbt"' "$tmp/list1" >"$tmp/fbt1"
[ -s "$tmp/fbt1" ] && fail "fbt probes listed without fentry or kprobes"
echo "without fentry and kprobes: no fbt probes; $(sed -n 2p "$tmp/err1")"

"$DTRACE" -l -P fbt >"$tmp/list2" 2>"$tmp/lerr2"
n=$(awk '$2 == "fbt"' "$tmp/list2" | wc -l)
if [ "$n" -eq 0 ]; then
	"$DTRACE" -n "$script" >"$tmp/out2" 2>"$tmp/err2"
	[ $? -eq 1 ] || fail "naming fbt here: not exit 1"
	unavailable "$tmp/err2"
	echo "this kernel: no fbt probes; $(sed -n 2p "$tmp/err2")"
else
	[ "$n" -ge 1000 ] || fail "only $n fbt probes"
	entries=$(awk '$2 == "fbt" && $5 == "entry"' "$tmp/list2" | wc -l)
	[ $((entries * 2)) -eq "$n" ] ||
	    fail "$entries entry probes of $n: not one return each"
	"$DTRACE" -lv -n fbt:vmlinux:vfs_read:entry >"$tmp/lv" 2>&1 ||
	    fail "dtrace -lv fbt:vmlinux:vfs_read:entry failed"
	grep -q 'args\[0\]: struct file \*' "$tmp/lv" ||
	    fail "vfs_read's args[0] is not typed struct file *"
	echo "this kernel: $n fbt probes, vfs_read's arguments typed"
fi

"$DTRACE" -n 'sdt:nosuchgroup::nosuchevent { trace(1); }' >/dev/null \
    2>"$tmp/err3"
grep -q fbt "$tmp/err3" && fail "an sdt failure mentions fbt"
exit 0

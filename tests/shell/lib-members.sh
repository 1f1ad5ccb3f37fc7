#!/bin/bash
# SPDX-License-Identifier: MIT
# lib-members.sh: a D library file saying "#pragma D depends_on member
# S.M" is loaded only when the kernel's struct S has a member M, and one
# saying "member !S.M" only when it has none -- how the libraries pick
# between kernels' names for the same thing (task_state.d and
# task_state_old.d, io_disk.d and io_disk_old.d; io_oflags.d and
# io_oflags_arm64.d between architectures) without a version check.
# Also: the libraries shipped compile against this kernel's types, with
# exactly one file of each such pair loaded.
set -u
. "$(dirname "$0")/lib.sh"

[ -r /sys/kernel/btf/vmlinux ] || { echo "needs kernel BTF (/sys/kernel/btf/vmlinux)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Two variants of one inline; which is loaded says which test held.
mkdir "$tmp/lib"
cat >"$tmp/lib/a.d" <<'D'
#pragma D depends_on member task_struct.pid
#pragma D depends_on member !task_struct.no_such_member
inline int WHICH = 1;
D
cat >"$tmp/lib/b.d" <<'D'
#pragma D depends_on member task_struct.no_such_member
inline int WHICH = 2;
D
cat >"$tmp/lib/c.d" <<'D'
#pragma D depends_on member !task_struct.pid
inline int WHICH = 3;
D
cat >"$tmp/lib/d.d" <<'D'
#pragma D depends_on member no_such_struct.pid
inline int WHICH = 4;
D
out=$("$DTRACE" -x syslibdir="$tmp/lib" -qn 'BEGIN { printf("%d\n", WHICH); exit(0); }' 2>&1)
if [ "$out" != 1 ]; then
	echo "FAIL: want only a.d loaded (WHICH 1), got: $out"
	fail=1
fi

# The same library, the test turned round: now only b.d would load...
sed -i 's/!task_struct.no_such_member/task_struct.no_such_member/' "$tmp/lib/a.d"
out=$("$DTRACE" -x syslibdir="$tmp/lib" -qn 'BEGIN { printf("%d\n", WHICH); exit(0); }' 2>&1)
case $out in
*"WHICH"*) ;;
*)
	echo "FAIL: with every variant left out, WHICH should be unknown, got: $out"
	fail=1
	;;
esac

# A program may say it too (it is not checked there).
out=$("$DTRACE" -qn '#pragma D depends_on member task_struct.pid
BEGIN { exit(0); }' 2>&1) || {
	echo "FAIL: depends_on member in a program: $out"
	fail=1
}

# The shipped libraries: every translator that reads a renamed member
# compiles here, through whichever variant this kernel's types chose.
out=$("$DTRACE" -x syslibdir="$top_srcdir/common/lib:$top_srcdir/os/linux/lib" -e -n 'BEGIN {
	trace(curlwpsinfo->pr_state); trace(curlwpsinfo->pr_onpro);
	trace(curpsinfo->pr_pid);
}' -n 'io:::start { trace(args[1]->dev_statname); trace(args[0]->b_edev); }' 2>&1) || {
	echo "FAIL: the libraries on this kernel: $out"
	fail=1
}

# The open flags whose numbers differ between architectures: this
# kernel's (io_oflags.d, or io_oflags_arm64.d on arm64).
case $(uname -m) in
aarch64) want="20000 4000 10000 8000" ;;
*) want="8000 10000 4000 20000" ;;
esac
out=$("$DTRACE" -x syslibdir="$top_srcdir/common/lib:$top_srcdir/os/linux/lib" \
    -x engine=interp -qn 'BEGIN { printf("%x %x %x %x\n", O_LARGEFILE,
    O_DIRECTORY, O_DIRECT, O_NOFOLLOW); exit(0); }' 2>&1)
if [ "$out" != "$want" ]; then
	echo "FAIL: O_LARGEFILE O_DIRECTORY O_DIRECT O_NOFOLLOW on $(uname -m): want $want, got: $out"
	fail=1
fi
exit $fail

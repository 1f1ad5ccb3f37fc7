#!/bin/sh
# SPDX-License-Identifier: MIT
#
# decode-real-binaries.sh: the x86-64 decoder must agree with objdump on
# every instruction of real libraries and programs (see
# x86_objdump_compare.c for what is compared and the documented rules).
#
# Exit 0 on agreement, 1 on any mismatch or too few binaries, 77 (skip)
# when objdump is absent.

top_builddir=${top_builddir:-.}
tool=$top_builddir/tests/isa/x86_objdump_compare

if ! command -v objdump >/dev/null 2>&1; then
	echo "SKIP: objdump (GNU binutils) is not installed"
	exit 77
fi
case $(uname -m) in
x86_64|amd64) ;;
*)	# the binaries below would not be x86-64 ones
	echo "SKIP: not an x86-64 host, no x86-64 binaries to compare"
	exit 77 ;;
esac
if [ ! -x "$tool" ]; then
	echo "FAIL: $tool not built"
	exit 1
fi

files=
n=0
for f in /lib/x86_64-linux-gnu/libc.so.6 /usr/lib64/libc.so.6 \
    /usr/lib/x86_64-linux-gnu/libstdc++.so.6 /usr/lib64/libstdc++.so.6 \
    /usr/bin/bash /bin/bash /usr/bin/sort /usr/bin/ls; do
	[ -f "$f" ] || continue
	# the same file under two names counts once
	r=$(readlink -f "$f")
	case " $files " in *" $r "*) continue ;; esac
	files="$files $r"
	n=$((n + 1))
done
if [ "$n" -lt 3 ]; then
	echo "FAIL: found only $n of the reference binaries ($files)"
	exit 1
fi

# shellcheck disable=SC2086
"$tool" $files
rc=$?
if [ $rc -eq 0 ]; then
	echo "PASS: decoder agrees with objdump on $n binaries"
	exit 0
fi
echo "FAIL: decoder and objdump disagree (status $rc)"
exit 1

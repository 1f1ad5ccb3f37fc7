#!/bin/sh
# SPDX-License-Identifier: MIT
#
# decode-vs-objdump.sh: compare the x86-64 decoder with objdump on any
# ELF files, or with -a on every x86-64 ELF file under /usr (slow: about
# 1700 files and 200 million instructions, minutes on 2 cores).
#
#	tests/isa/decode-vs-objdump.sh [-a] [-m max] [file...]
#
# Without files: libc, libstdc++, bash, sort and ls.  The tool must be
# built (make, or see isa/x86_64/README.md).

top_builddir=${top_builddir:-$(dirname "$0")/../..}
tool=$top_builddir/tests/isa/x86_objdump_compare
all=0
max=20

while getopts am: c; do
	case $c in
	a) all=1 ;;
	m) max=$OPTARG ;;
	*) echo "usage: $0 [-a] [-m max] [file...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))

if [ ! -x "$tool" ]; then
	echo "$tool not built" >&2
	exit 2
fi
if [ $all -eq 1 ]; then
	find /usr/lib /usr/lib64 /usr/bin /usr/sbin /usr/libexec -type f \
	    \( -name '*.so*' -o -perm -u+x \) 2>/dev/null |
	while read -r f; do
		[ "$(head -c 4 "$f" 2>/dev/null | od -An -tx1 | tr -d ' ')" = \
		    7f454c46 ] && echo "$f"
	done | xargs -P "$(nproc 2>/dev/null || echo 2)" -n 20 \
	    "$tool" -m "$max" | grep -v '^total:'
	exit 0
fi
if [ $# -eq 0 ]; then
	set -- /lib/x86_64-linux-gnu/libc.so.6 \
	    /usr/lib/x86_64-linux-gnu/libstdc++.so.6 /usr/bin/bash \
	    /usr/bin/sort /usr/bin/ls
fi
exec "$tool" -m "$max" "$@"

#!/bin/sh
# SPDX-License-Identifier: MIT
#
# decode-arm64-binaries.sh: the AArch64 decoder and site scanner must
# agree with GNU objdump for aarch64 on every instruction and every
# function of Debian's arm64 libc, libstdc++ and bash, and of
# a64-classes.s, which holds every instruction class (see
# a64_objdump_compare.c for what is compared).
#
# Needs aarch64-linux-gnu-objdump, -readelf and -as
# (binutils-aarch64-linux-gnu) and the three .debs in $DT_ARM64_DEBS
# (default /var/cache/dt-arm64debs), which tests/isa/fetch-arm64-debs.sh
# downloads; skips (77) with the reason when either is missing, after
# checking a64-classes.s alone if only the .debs are.  Exit 0 on
# agreement, 1 otherwise.

top_builddir=${top_builddir:-.}
srcdir=${top_srcdir:-$(dirname "$0")/../..}
tool=$top_builddir/tests/isa/a64_objdump_compare
debs=${DT_ARM64_DEBS:-/var/cache/dt-arm64debs}
objdump=aarch64-linux-gnu-objdump
as=aarch64-linux-gnu-as

for t in $objdump $as aarch64-linux-gnu-readelf; do
	if ! command -v $t >/dev/null 2>&1; then
		echo "SKIP: $t is not installed (binutils-aarch64-linux-gnu)"
		exit 77
	fi
done
if [ ! -x "$tool" ]; then
	echo "FAIL: $tool not built"
	exit 1
fi

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
if ! $as -march=armv8.8-a -o "$tmp/classes.o" \
    "$srcdir/tests/isa/a64-classes.s"; then
	echo "FAIL: cannot assemble a64-classes.s"
	exit 1
fi

# Without the .debs, a64-classes.s alone is compared, and a failure
# there still fails the test.
if ! "$tool" -O $objdump -R aarch64-linux-gnu-readelf "$tmp/classes.o"; then
	echo "FAIL: the A64 decoder and $objdump disagree on a64-classes.s"
	exit 1
fi

# The binaries, extracted once from the .debs into $debs/root.
root=$debs/root
set -- "$root/lib/aarch64-linux-gnu/libc.so.6" \
    "$root/usr/lib/aarch64-linux-gnu/libstdc++.so.6" "$root/bin/bash"
for pkg in libc6 libstdc++6 bash; do
	deb=$(ls "$debs/${pkg}"_*_arm64.deb 2>/dev/null | head -n 1)
	if [ -z "$deb" ]; then
		echo "SKIP: a64-classes.s agrees; no ${pkg}_*_arm64.deb in" \
		    "$debs for the real binaries (tests/isa/fetch-arm64-debs.sh)"
		exit 77
	fi
	[ -e "$root/.$pkg" ] && continue
	mkdir -p "$root" && dpkg-deb -x "$deb" "$root" &&
	    touch "$root/.$pkg" || { echo "FAIL: cannot extract $deb"; exit 1; }
done
for f in "$@"; do
	if [ ! -f "$f" ]; then
		echo "FAIL: $f is not in the extracted packages"
		exit 1
	fi
done

"$tool" -c -O $objdump -R aarch64-linux-gnu-readelf "$tmp/classes.o" "$@"
rc=$?
if [ $rc -eq 0 ]; then
	echo "PASS: the A64 decoder agrees with $objdump on every" \
	    "instruction and function"
	exit 0
fi
echo "FAIL: the A64 decoder and $objdump disagree (status $rc)"
exit 1

#!/bin/bash
# SPDX-License-Identifier: MIT
# reproducible.sh: the Debian packages are the same bytes whichever
# directory they are built in.  The sources are copied into two
# directories of different names and lengths, each is built with
# `dpkg-buildpackage -us -uc -b`, and every .deb of the one build must
# be byte-identical (cmp) to its namesake of the other; where one is
# not, diffoscope, if installed, says where they differ.  The built
# library and programs must not hold the build directory's path either.
#
#	tests/pkg/reproducible.sh [outdir]
#
# outdir (default pkg-out/reproducible) keeps the two builds' .debs and
# logs.  Two package builds take 5 to 15 minutes on two CPUs, so it
# is not part of `make check`.  Needs dpkg-dev, debhelper and the
# Build-Depends (dpkg-checkbuilddeps says which are missing); not root.
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
out=$(realpath -m "${1:-$top/pkg-out/reproducible}")
command -v dpkg-buildpackage >/dev/null && command -v dh >/dev/null ||
	{ echo "needs dpkg-dev and debhelper"; exit 77; }
(cd "$top" && dpkg-checkbuilddeps) 2>&1 | sed -n 's/^dpkg-checkbuilddeps: error: //p' |
	grep . && exit 77

tmp=$(mktemp -d /var/tmp/dt-repro.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
rm -rf "$out"
mkdir -p "$out"
fail=0

# The sources as git sees them (tracked and new files, no build trees),
# taken once, so that both builds have the same even if the tree changes
# meanwhile.
if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
	(cd "$top" && git ls-files -z --cached --others --exclude-standard |
	    xargs -0 tar -cf "$tmp/src.tar" 2>/dev/null)
else
	tar -C "$top" --exclude-vcs --exclude=./build --exclude=./pkg-out \
	    -cf "$tmp/src.tar" .
fi

# One build: the sources unpacked in $1, packages and log kept in
# $out/$2.
build() {
	local dir=$1 name=$2

	mkdir -p "$dir/dtrace" "$out/$name"
	tar -C "$dir/dtrace" -xf "$tmp/src.tar"
	if ! (cd "$dir/dtrace" && DEB_BUILD_OPTIONS="parallel=$(nproc) nocheck" \
	    dpkg-buildpackage -us -uc -b) >"$out/$name/build.log" 2>&1; then
		tail -n 30 "$out/$name/build.log"
		echo "FAIL: dpkg-buildpackage in $dir/dtrace"
		exit 1
	fi
	cp "$dir"/*.deb "$out/$name/"
	# What dh_install put in the packages, unstripped and stripped alike:
	# no trace of the directory it was built in.
	if grep -rlaF "$dir" "$dir/dtrace/debian/build/.libs/libdtrace.so.0.0.0" \
	    "$dir/dtrace/debian/build/cmd/.libs/dtrace" "$dir/dtrace/debian/tmp" \
	    >"$out/$name/leaks" 2>/dev/null; then
		echo "FAIL: the build directory $dir is written in:"
		sed 's/^/  /' "$out/$name/leaks"
		grep -aoF "$dir" -r "$dir/dtrace/debian/tmp" | sort | uniq -c | head
		fail=1
	fi
}

build "$tmp/a" first
build "$tmp/build-directory-two" second

n=0
for d in "$out"/first/*.deb; do
	f=${d##*/}
	n=$((n + 1))
	if [ ! -f "$out/second/$f" ]; then
		echo "FAIL: $f is built in one directory only"
		fail=1
	elif cmp -s "$d" "$out/second/$f"; then
		echo "same: $f ($(sha256sum <"$d" | cut -c1-16))"
	else
		echo "FAIL: $f differs between the two builds"
		command -v diffoscope >/dev/null &&
			diffoscope --text - "$d" "$out/second/$f" | head -n 60
		fail=1
	fi
done
[ $n -gt 0 ] || { echo "FAIL: no .deb built"; exit 1; }
exit $fail

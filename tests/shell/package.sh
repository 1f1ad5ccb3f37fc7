#!/bin/bash
# SPDX-License-Identifier: MIT
# package.sh: the Debian packages build and work once installed.  It
# builds them with `dpkg-buildpackage -us -uc -b` from a copy of the
# source tree (about a minute and a half on two CPUs), checks them with
# lintian (no tag at --pedantic that debian/*.lintian-overrides does not
# override), installs them on this machine, checks the layout
# and the diversion of systemtap-sdt-dev's /usr/bin/dtrace and manual
# page, counts a program's system calls with the installed dtrace, then
# removes the packages and checks that the machine is as it was.
#
# DTRACE_DEBS=DIR tests the .debs already built in DIR instead.
set -u

[ "$(id -u)" -eq 0 ] || { echo "needs root to install packages"; exit 77; }
command -v apt-get >/dev/null || { echo "needs apt-get (Debian)"; exit 77; }
command -v cc >/dev/null || { echo "needs a C compiler (cc)"; exit 77; }
# (The kernel lab's guests see this machine's root read-only.)
[ -w /var/lib/dpkg ] ||
	{ echo "the package database (/var/lib/dpkg) is read-only here"; exit 77; }
for p in dtrace libdtrace0 libdtrace-dev; do
	if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q ' installed$'; then
		echo "package $p is installed on this machine; not replacing it"
		exit 77
	fi
done

tmp=$(mktemp -d)
apt=(apt-get -y -q -o DPkg::Lock::Timeout=300)
installed=
cleanup() {
	[ -n "$installed" ] &&
	    "${apt[@]}" purge dtrace libdtrace-dev libdtrace0 >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
fail=0

if [ -z "${DTRACE_DEBS:-}" ]; then
	: "${top_srcdir:?}"
	command -v dpkg-buildpackage >/dev/null && command -v dh >/dev/null ||
		{ echo "needs dpkg-dev and debhelper to build the packages"; exit 77; }
	(cd "$top_srcdir" && dpkg-checkbuilddeps) >"$tmp/deps.log" 2>&1 ||
		{ sed -n 's/^dpkg-checkbuilddeps: error: //p' "$tmp/deps.log"; exit 77; }
	# The sources as git sees them (tracked and new files, no build
	# trees): an in-tree configured copy would stop configure.
	mkdir "$tmp/src"
	if git -C "$top_srcdir" rev-parse --git-dir >/dev/null 2>&1; then
		(cd "$top_srcdir" &&
		    git ls-files -z --cached --others --exclude-standard |
		    xargs -0 tar -cf - 2>/dev/null) | tar -C "$tmp/src" -xf -
	else
		tar -C "$top_srcdir" --exclude-vcs --exclude=./build \
		    --exclude=./build-check -cf - . | tar -C "$tmp/src" -xf -
	fi
	if ! (cd "$tmp/src" && DEB_BUILD_OPTIONS="parallel=$(nproc) nocheck" \
	    dpkg-buildpackage -us -uc -b) >"$tmp/build.log" 2>&1; then
		tail -n 30 "$tmp/build.log"
		echo "FAIL: dpkg-buildpackage -us -uc -b"
		exit 1
	fi
	DTRACE_DEBS=$tmp
	# Every tag, down to --pedantic, is fixed or overridden in
	# debian/*.lintian-overrides with its reason.
	if command -v lintian >/dev/null &&
	    ! lintian --pedantic --fail-on error,warning,info,pedantic \
	    "$tmp"/dtrace_*_amd64.changes >"$tmp/lintian.log" 2>&1; then
		cat "$tmp/lintian.log"
		echo "FAIL: lintian --pedantic finds tags not overridden"
		fail=1
	fi
fi

debs=()
for p in libdtrace0 libdtrace-dev dtrace; do
	f=$(ls "$DTRACE_DEBS"/${p}_*_amd64.deb 2>/dev/null | tail -n 1)
	[ -n "$f" ] || { echo "FAIL: no ${p}_*_amd64.deb in $DTRACE_DEBS"; exit 1; }
	debs+=("$(realpath "$f")")
done

# What /usr/bin/dtrace and its manual page are before: systemtap-sdt-dev's,
# or nothing.
man=/usr/share/man/man1/dtrace.1.gz
before=absent
[ -e /usr/bin/dtrace ] && before=$(sha256sum </usr/bin/dtrace)
before_man=absent
[ -e $man ] && before_man=$(sha256sum <$man)

installed=1
if ! "${apt[@]}" install "${debs[@]}" >"$tmp/install.log" 2>&1; then
	cat "$tmp/install.log"
	echo "FAIL: installing ${debs[*]}"
	exit 1
fi

ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)
for f in /usr/sbin/dtrace /usr/share/man/man1/dtrace.1.gz \
    /usr/lib/$ma/libdtrace.so.0 /usr/lib/$ma/dtrace/psinfo.d \
    /usr/include/dtrace.h /usr/lib/$ma/pkgconfig/libdtrace.pc; do
	[ -e "$f" ] || { echo "FAIL: $f not installed"; fail=1; }
done
[ "$(readlink -f /usr/bin/dtrace)" = /usr/sbin/dtrace ] ||
	{ echo "FAIL: /usr/bin/dtrace is not ours"; fail=1; }
if [ "$before" != absent ]; then
	[ "$(sha256sum </usr/bin/dtrace.systemtap)" = "$before" ] ||
		{ echo "FAIL: systemtap's dtrace not kept as /usr/bin/dtrace.systemtap"; fail=1; }
fi
if [ "$before_man" != absent ]; then
	[ "$(sha256sum </usr/share/man/man1/dtrace.systemtap.1.gz)" = "$before_man" ] ||
		{ echo "FAIL: systemtap's manual page not kept as dtrace.systemtap.1.gz"; fail=1; }
fi
zcat $man | grep -q 'dynamic tracing compiler' ||
	{ echo "FAIL: $man is not ours"; fail=1; }
dpkg-divert --list /usr/bin/dtrace | grep -q 'by dtrace$' ||
	{ echo "FAIL: no diversion of /usr/bin/dtrace"; fail=1; }

# A system call trace with the installed binary: a program's getppid()
# calls, counted in the kernel, and its name from the installed D
# library (curpsinfo is psinfo.d's).
cat >"$tmp/calls.c" <<'C'
#include <unistd.h>

int
main(void)
{
	for (int i = 0; i < 7; i++)
		(void) getppid();
	return 0;
}
C
cc -o "$tmp/calls" "$tmp/calls.c" || exit 1
out=$(cd / && PATH=/usr/bin:/bin dtrace -q -n '
    syscall::getppid:entry /pid == $target/ { @[curpsinfo->pr_fname] = count(); }
    END { printa("%s %@d\n", @); }' -c "$tmp/calls" 2>&1)
if [ "$out" != "calls 7" ]; then
	echo "FAIL: dtrace (found on PATH as /usr/bin/dtrace) printed:"
	echo "$out"
	fail=1
fi

# Removed, the machine is as before: no dtrace, no diversion, systemtap's
# /usr/bin/dtrace back in its place.
if ! "${apt[@]}" purge dtrace libdtrace-dev libdtrace0 >"$tmp/remove.log" 2>&1; then
	cat "$tmp/remove.log"
	echo "FAIL: removing the packages"
	exit 1
fi
installed=
[ -e /usr/sbin/dtrace ] && { echo "FAIL: /usr/sbin/dtrace left behind"; fail=1; }
[ -e /usr/lib/$ma/dtrace ] && { echo "FAIL: /usr/lib/$ma/dtrace left behind"; fail=1; }
[ -e /var/cache/dtrace ] && { echo "FAIL: /var/cache/dtrace left behind by purge"; fail=1; }
dpkg-divert --list | grep -q 'by dtrace$' &&
	{ echo "FAIL: diversions by dtrace are left"; fail=1; }
after=absent
[ -e /usr/bin/dtrace ] && after=$(sha256sum </usr/bin/dtrace)
[ "$after" = "$before" ] || { echo "FAIL: /usr/bin/dtrace not restored"; fail=1; }
[ -e /usr/bin/dtrace.systemtap ] && { echo "FAIL: /usr/bin/dtrace.systemtap left"; fail=1; }
after_man=absent
[ -e $man ] && after_man=$(sha256sum <$man)
[ "$after_man" = "$before_man" ] || { echo "FAIL: $man not restored"; fail=1; }
exit $fail

#!/bin/bash
# SPDX-License-Identifier: MIT
# install-layout.sh: `make install` lays dtrace out as DTrace does --
# dtrace in $(sbindir), the D library files in $(libdir)/dtrace, the man
# page, dtrace.h and libdtrace.pc -- and the installed copy works on its
# own: a script starting "#!<prefix>/sbin/dtrace -qs" runs as a command
# with its $1/$$1 arguments, takes its D library from the installed tree
# (not the source tree), and a program builds against the installed
# header and library through pkg-config.
#
# It installs the build tree under test with DESTDIR into a temporary
# directory, so nothing on the machine changes.
set -u

: "${top_builddir:?}"
command -v make >/dev/null || { echo "needs make to install"; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
fail=0

if ! make -s -C "$top_builddir" install DESTDIR="$root" >"$tmp/install.log" 2>&1; then
	cat "$tmp/install.log"
	echo "FAIL: make install DESTDIR=$root"
	exit 1
fi
# The configured directories, as make expands them.
dirs=$(make -s -C "$top_builddir" --no-print-directory -f - print-dirs <<'M'
include Makefile
print-dirs:
	@echo "$(prefix)|$(sbindir)|$(libdir)|$(includedir)|$(mandir)|$(bindir)|$(CFLAGS) $(LDFLAGS)"
M
)
IFS='|' read -r prefix sbindir libdir includedir mandir bindir cflags <<<"$dirs"
[ -n "$sbindir" ] || { echo "FAIL: cannot read the configured directories"; exit 1; }

want() {
	[ -e "$root$1" ] || { echo "FAIL: $1 not installed"; fail=1; }
}
want "$sbindir/dtrace"
want "$libdir/libdtrace.so"
want "$includedir/dtrace.h"
want "$libdir/pkgconfig/libdtrace.pc"
want "$mandir/man1/dtrace.1"
want "$prefix/share/bash-completion/completions/dtrace"
for f in psinfo.d signal.d errno.d io.d net.d faults.d sched.d task_state.d \
    task_state_old.d task_cpu.d task_cpu_old.d io_disk.d io_disk_old.d \
    io_oflags.d io_oflags_arm64.d; do
	want "$libdir/dtrace/$f"
done
[ -e "$root$bindir/dtrace" ] && { echo "FAIL: dtrace also in $bindir"; fail=1; }
[ "$sbindir" = "$prefix/sbin" ] || { echo "FAIL: sbindir is $sbindir"; fail=1; }
[ $fail -eq 0 ] || exit 1

# The installed binary finds the installed libdtrace (its run path is
# $(libdir), which under DESTDIR is not where it is yet).
export LD_LIBRARY_PATH=$root$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

# A DTrace-book style script, run directly as a command.  EPERM comes
# from the installed errno.d.
cat >"$tmp/hello.d" <<EOF2
#!$root$sbindir/dtrace -qs
BEGIN
{
	printf("%s %d %d\n", \$\$1, \$2 * 2, EPERM);
	exit(0);
}
EOF2
chmod +x "$tmp/hello.d"
out=$(cd / && "$tmp/hello.d" world 21 2>&1)
if [ "$out" != "world 42 1" ]; then
	echo "FAIL: script as a command printed: $out"
	fail=1
fi

# The library came from the installed tree: without its errno.d the same
# script no longer compiles.
mv "$root$libdir/dtrace/errno.d" "$tmp/errno.d"
if out=$("$tmp/hello.d" world 21 2>&1); then
	echo "FAIL: ran without the installed errno.d, so its library is elsewhere: $out"
	fail=1
elif ! grep -q "EPERM" <<<"$out"; then
	echo "FAIL: unexpected error without errno.d: $out"
	fail=1
fi
mv "$tmp/errno.d" "$root$libdir/dtrace/errno.d"

# A program against the installed header and library, through pkg-config.
if command -v pkg-config >/dev/null && command -v cc >/dev/null; then
	cat >"$tmp/v.c" <<'C'
#include <dtrace.h>
#include <stdio.h>

int
main(void)
{
	int err;
	dtrace_hdl_t *dtp = dtrace_open(DTRACE_VERSION, 0, &err);

	if (dtp == NULL)
		return 1;
	dtrace_close(dtp);
	puts("opened");
	return 0;
}
C
	export PKG_CONFIG_SYSROOT_DIR=$root PKG_CONFIG_LIBDIR=$root$libdir/pkgconfig
	# Built as the library was (a sanitizer build's needs its runtime).
	# shellcheck disable=SC2086
	if ! cc $cflags -o "$tmp/v" "$tmp/v.c" \
	    $(pkg-config --cflags --libs libdtrace) \
	    >"$tmp/cc.log" 2>&1; then
		cat "$tmp/cc.log"
		echo "FAIL: cannot build against the installed dtrace.h/libdtrace.pc"
		fail=1
	elif [ "$("$tmp/v")" != opened ]; then
		echo "FAIL: a program linked with the installed libdtrace"
		fail=1
	fi
else
	echo "note: no pkg-config or cc, the header and .pc are checked for presence only"
fi
exit $fail

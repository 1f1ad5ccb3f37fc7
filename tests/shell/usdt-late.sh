#!/bin/bash
# SPDX-License-Identifier: MIT
# usdt-late.sh: probes that appear after tracing starts, matched by -Z
# descriptions of the -c process: USDT probes (and pid probes) of a
# library the program dlopen()s, and, with -x followfork, the USDT probes
# of programs its children exec.  Counts are exact: each process is
# stopped at the dlopen or exec until its new probes are in place.  On
# every engine that fires pid probes here (lib.sh: the BPF engine as root
# with uprobes, the ptrace engine always).
set -u

command -v cc >/dev/null || { echo "needs a C compiler (cc)"; exit 77; }
[ "$(uname -m)" = x86_64 ] || [ "$(id -u)" -eq 0 ] ||
	{ echo "needs root (BPF) or x86-64 (ptrace)"; exit 77; }
echo '#include <sys/sdt.h>' | cc -E - >/dev/null 2>&1 ||
	{ echo "needs <sys/sdt.h> (systemtap-sdt-dev)"; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top_srcdir/tests/shell/lib.sh"
src="$top_srcdir/tests/shell/data/usdt-late.c"
cc -O2 -shared -fPIC -DLIB -o "$tmp/liblate.so" "$src" &&
    cc -O2 -DMAIN -o "$tmp/main" "$src" -ldl &&
    cc -O2 -DLOOP -o "$tmp/loop" "$src" &&
    cc -O2 -DFORK -o "$tmp/fork" "$src" || exit 1

count() { tr -d ' ' | grep .; }

pid_engines
for e in $engines; do
	dt() { "$DTRACE" -x engine="$e" "$@"; }

	got=$(dt -Z -q -c "$tmp/main 37 $tmp/liblate.so" \
	    -n 'latelib$target:::tick { @ = count(); }' 2>&1 | count)
	check "$e: USDT probe of a dlopen()ed library, none matched at start" \
	    37 "$got"

	got=$(dt -Z -q -c "$tmp/main 37 $tmp/liblate.so" \
	    -n 'pid$target:liblate.so:lib_work:entry { @ = count(); }' 2>&1 |
	    count)
	check "$e: pid probe of a dlopen()ed library, none matched at start" \
	    1 "$got"

	got=$(dt -Z -q -c "$tmp/main 37 $tmp/liblate.so" -n '
	    pid$target::main:entry { @m = count(); }
	    latelib$target:::tick { @t = count(); }
	    END { printa("%@d ", @m); printa("%@d\n", @t); }' 2>&1 | grep .)
	check "$e: dlopen()ed USDT probe beside a probe matched at start" \
	    "1 37" "$got"

	got=$(dt -Z -q -x followfork -c "$tmp/fork $tmp/loop 3 11" \
	    -n 'latebin$target:::tick { @ = count(); }' 2>&1 | count)
	check "$e: followfork: USDT probes of exec'd children (3 x 11)" 33 \
	    "$got"
done

exit $fail

#!/bin/bash
# SPDX-License-Identifier: MIT
# progress-line.sh: the BPF engine's progress line.  On a terminal (a pty
# made by script(1)), loading, attaching and detaching probes that take
# longer than the delay draw "dtrace: attaching probes: N of M" over
# itself and end with how long it took; with standard error a pipe or a
# file, nothing is written.  The delay, a second, is made 0 here
# (DTRACE_PROGRESS_DELAY_MS) so that the test does not hang on the
# machine's speed; uprobe_multi is hidden so that each probe has a link
# of its own, the slow case the line is for.
set -u

. "$top_srcdir/tests/shell/lib.sh"	# check(), need_bpf_uprobes()
need_bpf_uprobes
command -v script >/dev/null || { echo "needs script (util-linux)"; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

d='pid$target:libc.so.6:strlen:entry, pid$target:libc.so.6:strchr:entry
    { @ = count(); }'
export DTRACE_PROGRESS_DELAY_MS=0 DTRACE_LINUX_NOFEATURE=uprobe_multi

# On a pty: the lines, each redraw on a line of its own here.
printf '%s\n' "$d" >"$tmp/d.d"
script -qec "\"$DTRACE\" -q -c /bin/true -s \"$tmp/d.d\"" /dev/null \
    >"$tmp/tty" 2>&1
got=$(tr '\r' '\n' <"$tmp/tty" | sed 's/\x1b\[K//g' |
    sed -n 's/ in [0-9]*\.[0-9] s$/ in T s/; /^dtrace: /p' | sort -u)
want="dtrace: 2 links detached in T s
dtrace: 2 probes enabled in T s
dtrace: attaching probes: 2 of 2
dtrace: detaching probes: 2 of 2
dtrace: loading probes: 2 of 2"
# (Intermediate counts, "1 of 2", may or may not be drawn.)
got=$(grep -v ' 1 of 2$' <<<"$got")
check "a terminal gets the progress line" "$want" "$got"

# Not a terminal: not a byte of it.
"$DTRACE" -q -c /bin/true -s "$tmp/d.d" >"$tmp/out" 2>"$tmp/err"
check "a file gets none" "" "$(grep probes "$tmp/err")"
"$DTRACE" -q -c /bin/true -s "$tmp/d.d" 2>&1 | cat >"$tmp/pipe"
check "a pipe gets none" "" "$(grep probes "$tmp/pipe")"

exit $fail

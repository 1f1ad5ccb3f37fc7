#!/bin/bash
# SPDX-License-Identifier: MIT
# lazy-start.sh: what dtrace leaves for later, and that later is the same.
# The kernel's providers list their probes (tracefs's available_events,
# ~1,600 events) only when a description could match one, and the D
# library files (and with them the kernel's BTF) are compiled only for a
# program that may use what they declare.  Checked here: every probe keeps
# the ID full listing gives it whichever provider a description names
# first, probes made on demand come after all of them, a provider named
# only by a later clause or -n is found, a library name reached through a
# macro argument or a later program compiles, and -- through strace, when
# installed -- that BEGIN { exit(0); } reads neither available_events nor
# the kernel's BTF, while a program naming a library constant does.
set -u

[ "$(id -u)" -eq 0 ] || { echo "needs root to read tracefs"; exit 77; }
[ -r /sys/kernel/tracing/available_events ] ||
	[ -r /sys/kernel/debug/tracing/available_events ] ||
	{ echo "no tracefs with available_events"; exit 77; }
. "$top_srcdir/tests/shell/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$DTRACE" -l >"$tmp/all" 2>&1 || { echo "FAIL: dtrace -l"; exit 1; }
grep -q ' sdt ' "$tmp/all" || { echo "no sdt probes listed"; exit 77; }

# One line of the full listing: provider, module, function, name.
line_of() {
	awk -v p="$1" -v m="$2" -v f="$3" -v n="$4" '
	    $2 == p && (m == "" || $3 == m) && $NF == n &&
	    (f == "" || $(NF - 1) == f) { print; exit }' "$tmp/all"
}

# Each provider named alone lists its probe with the ID of the full list.
for d in "syscall vmlinux read entry" "sdt sched - sched_switch" \
    "rawtp sched - sched_switch" "proc vmlinux - exec-success" \
    "sched vmlinux - on-cpu" "tcp vmlinux - send" \
    "lockstat vmlinux - adaptive-acquire" "dtrace - - END"; do
	set -- $d
	m=$2 f=$3
	[ "$m" = - ] && m=
	[ "$f" = - ] && f=
	want=$(line_of "$1" "$m" "$f" "$4")
	[ -n "$want" ] || { echo "note: no $1 probe $4 here"; continue; }
	got=$("$DTRACE" -l -n "$1:$m:$f:$4" 2>&1 | sed -n 2p)
	check "$1:$m:$f:$4 has the ID of the full listing" "$want" "$got"
done

# -i of the listing's last probe, in a fresh process: where fbt lists the
# kernel's functions, it makes those probes on demand, after every
# other, and -i of one of them makes them as the listing did.
last=$(tail -1 "$tmp/all")
id=$(echo "$last" | awk '{ print $1 }')
check "-i $id" "$last" "$("$DTRACE" -l -i "$id" 2>&1 | sed -n 2p)"

# A probe made on demand comes after every probe a provider lists when
# populated (all but fbt's, which a fresh process has not made).
sid=$(awk 'NR > 1 && $2 != "fbt" { id = $1 } END { print id }' "$tmp/all")
got=$("$DTRACE" -l -n tick-4321ms 2>&1 | awk 'NR == 2 { print $1 }')
check "tick-4321ms after every static probe" "$((sid + 1))" "$got"

# A provider named only by a later -n, or a later clause of a script.
got=$("$DTRACE" -n 'BEGIN { exit(0); }' -n ':::sched_switch { }' 2>&1 |
    grep matched)
check "sched_switch named by a later -n" "dtrace: description 'BEGIN ' matched 1 probe
dtrace: description ':::sched_switch ' matched 2 probes" "$got"
printf 'BEGIN\n{\n\texit(0);\n}\n\nsched_switch\n{\n}\n' >"$tmp/s.d"
got=$("$DTRACE" -s "$tmp/s.d" 2>&1 | grep matched)
check "sched_switch named by a later clause" \
    "dtrace: script '$tmp/s.d' matched 3 probes" "$got"

# Library names: directly, through a macro argument, in a later program.
got=$("$DTRACE" -q -n 'BEGIN { printf("%d %d", EPERM, SIGKILL); exit(0); }' 2>&1)
check "EPERM and SIGKILL from the library" "1 9" "$got"
got=$("$DTRACE" -q -n 'BEGIN { trace($1); exit(0); }' ENOENT 2>&1)
check "a library constant as \$1" "2" "$got"
got=$("$DTRACE" -q -n 'BEGIN { trace(1); }' -n 'BEGIN { trace(EINTR); exit(0); }' 2>&1)
check "a library constant in a later -n" "14" "$got"
got=$("$DTRACE" -q -n 'BEGIN { trace(curpsinfo->pr_pid == pid); exit(0); }' 2>&1)
check "curpsinfo, the library's translator" "1" "$got"

# What is not read: only through strace.
if command -v strace >/dev/null 2>&1; then
	strace -f -e trace=openat -o "$tmp/st" "$DTRACE" -q \
	    -n 'BEGIN { exit(0); }' >/dev/null 2>&1
	got=$(grep -cE 'available_events|/sys/kernel/btf/vmlinux' "$tmp/st")
	check "BEGIN { exit(0); } reads no event list and no BTF" "0" "$got"
	strace -f -e trace=openat -o "$tmp/st" "$DTRACE" -q \
	    -n 'BEGIN { trace(EPERM); exit(0); }' >/dev/null 2>&1
	got=$(grep -c '/sys/kernel/btf/vmlinux' "$tmp/st")
	[ "$got" -gt 0 ] && got=read
	check "a program naming EPERM compiles the library (BTF)" read "$got"
	strace -f -e trace=openat -o "$tmp/st" "$DTRACE" -l \
	    -n 'sdt:::sched_switch' >/dev/null 2>&1
	got=$(grep -c 'available_events' "$tmp/st")
	[ "$got" -gt 0 ] && got=read
	check "naming sdt lists the events" read "$got"
else
	echo "note: no strace: what is left unread is not checked"
fi
exit $fail

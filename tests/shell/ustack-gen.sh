#!/bin/bash
# SPDX-License-Identifier: MIT
# ustack-gen.sh: the BPF engine's user stack walk keeps the unwind rule it
# found for each return address in a cache keyed by the process's rows'
# generation; a library unloaded and another loaded at the same address
# must not inherit the first one's rules.  tests/shell/data/ustack-gen.c
# calls getppid() through hop() of library A (an 8-byte frame), unloads
# it, and calls through hop() of library B (a 72-byte frame) mapped at
# the same address, whose call returns to the same address as A's (both
# built from ustack-gen.S), all on one CPU so that the walks share that
# CPU's cache.  At a syscall probe, the hottest stack through each
# library must go on past hop() to run() and main(): a walk that used
# A's rule for B's frame would end at hop().  A few first calls of each
# phase may precede dtrace's new rows (it reads them without stopping
# the process), so the hottest stack is checked, not every one.
set -u

[ "$(id -u)" -eq 0 ] || { echo "needs root to load BPF programs"; exit 77; }
command -v cc >/dev/null || { echo "needs a C compiler (cc)"; exit 77; }
case $(uname -m) in
x86_64 | aarch64) ;;
*) echo "the test's libraries are x86-64's and arm64's"; exit 77 ;;
esac
. "$top_srcdir/tests/shell/lib.sh"
need_features task_pt_regs map_in_map bpf_loop

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
data=$top_srcdir/tests/shell/data
cc -shared -DFRAME=8 -o "$tmp/liba.so" "$data/ustack-gen.S" &&
    cc -shared -DFRAME=72 -o "$tmp/libb.so" "$data/ustack-gen.S" &&
    cc -O2 -fno-optimize-sibling-calls -o "$tmp/gen" "$data/ustack-gen.c" \
    -ldl || exit 1

fail=0
out=$("$DTRACE" -x engine=bpf -q -c "$tmp/gen $tmp/liba.so $tmp/libb.so 250" \
    -n 'syscall::getppid:entry /pid == $target/ { @[ustack(5)] = count(); }' \
    2>&1)
addrs=$(printf '%s\n' "$out" | grep -E '^0x[0-9a-f]+$')
[ "$(printf '%s\n' "$addrs" | wc -l)" -eq 2 ] || {
	printf 'FAIL: the program did not run both phases\n%s\n' "$out"
	exit 1
}
[ "$(printf '%s\n' "$addrs" | sort -u | wc -l)" -eq 1 ] || {
	echo "library B was not mapped at library A's address here:" $addrs
	exit 77
}

# The frames after getppid() of the hottest stack through cb_X, offsets
# blanked, hop()'s frame (named or a bare address: its library may be
# gone when the stacks are printed) as "hop".
hottest() {
	printf '%s\n' "$out" | awk -v cb="gen\`$1+" '
	    BEGIN { RS = "" }
	    $NF ~ /^[0-9]+$/ && index($0, cb) && $NF + 0 > best {
		    best = $NF + 0; s = $0 }
	    END { print s }' | sed -e 's/^ *//' -e 's/+0x[0-9a-f]*$/+0x../' \
	    -e 's/^0x[0-9a-f]*$/hop/' -e 's/^lib[ab]\.so`hop+0x\.\.$/hop/' |
	    sed -n 2,5p
}
for x in a b; do
	check "through library $x: past hop() to main()" "gen\`cb_$x+0x..
hop
gen\`run+0x..
gen\`main+0x.." "$(hottest cb_$x)"
done

exit $fail

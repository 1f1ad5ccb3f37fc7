#!/bin/bash
# SPDX-License-Identifier: MIT
# pid-tailcall.sh: return probes at conditional tail calls.  tc() returns
# through "jne leaf" (a jcc out of the function; arm64: "b.ne leaf") for
# odd arguments and through ret for even ones: tc:return must fire
# exactly once per call -- at the jne only when the branch is taken,
# never when it falls through to the ret -- with arg0 the offset of the
# site that returned, on each engine that fires pid probes.  On arm64
# also through cbnz, cbz and tbnz: conditions on a register, not the
# flags.
set -u

command -v cc >/dev/null || { echo "needs a C compiler (cc)"; exit 77; }
# Each function as FUNC:BRANCH:RET, the offsets of its branch out and its
# ret, from the bytes the .s gives it.
case $(uname -m) in
# test $1,%edi (6 bytes), jne (2), lea (3), ret.
x86_64) funcs="tc:6:11" ;;
# tst, b.ne, add, ret, four bytes each; and the tail calls on a register:
# and, cbnz, add, ret; and, cbz, add, ret; tbnz, add, ret.
aarch64) funcs="tc:4:12 tccbnz:4:12 tccbz:4:12 tctbnz:0:8" ;;
*) echo "the test function is x86-64's or arm64's"; exit 77 ;;
esac

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top_srcdir/tests/shell/lib.sh"
cc -O2 -o "$tmp/tc" "$top_srcdir/tests/shell/data/pid-tailcall.c" || exit 1

pid_engines

n=1000
for e in $engines; do
	for spec in $funcs; do
		IFS=: read -r f br ret <<<"$spec"
		got=$("$DTRACE" -x engine="$e" -q -c "$tmp/tc $n $f" -n '
		    pid$target::'"$f"':entry { @calls = count(); }
		    pid$target::'"$f"':return { @ret[arg0] = count(); }
		    pid$target::leaf:return { @leaf = count(); }
		    END { printa("calls %@d\n", @calls);
		    printa("at %d: %@d\n", @ret); printa("leaf %@d\n", @leaf); }' \
		    2>&1 | grep .)
		want="calls $n
at $br: $((n / 2))
at $ret: $((n / 2))
leaf $((n / 2))"
		check "$e: $f:return once per call, at the branch only when taken" \
		    "$want" "$got"
	done
done

exit $fail

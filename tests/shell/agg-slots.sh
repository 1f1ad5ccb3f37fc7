#!/bin/bash
# SPDX-License-Identifier: MIT
# agg-slots.sh: the bpf engine keeps a keyed aggregation in slots the
# consumer reads in place, or, where it cannot make them, in a per-CPU
# hash (DTRACE_LINUX_NOFEATURE=agg_slots makes it take the second way
# here).  Both ways must print what the interpreter prints: keys of each
# kind (integers, strings, tuples, a stack), every aggregating function,
# keys taken by trunc() and clear() and made again, and a trunc() to the
# top keys at the end.  The counts are fixed by a counter, not by time,
# and the printing is sorted by key.  And a key counted by firings on
# every CPU sums each CPU's values: it must equal a count without keys
# (kept apart, in a per-CPU array) made by the same firings.
set -u

skip() { echo "$*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

[ "$(id -u)" -eq 0 ] || skip "not root: the bpf engine needs root"
"$DTRACE" -q -x engine=bpf -n 'BEGIN { exit(0); }' >/dev/null 2>&1 ||
    skip "the bpf engine cannot run here"

S='#pragma D option quiet
#pragma D option aggsortkey
int n;

tick-1ms
/n < 400/
{
	@cnt[n % 7] = count();
	@sum[n % 5, "k"] = sum(n);
	@avg[n % 3 == 0 ? "three" : "other"] = avg(n);
	@mm[n % 4] = min(n);
	@mx[n % 4] = max(n);
	@q[n % 2] = quantize(n);
	@lq[n % 3] = lquantize(n, 0, 400, 50);
	@sd[n % 2] = stddev(n);
	@big[n] = count();
	n++;
}

tick-1ms
/n == 200/
{
	trunc(@cnt);
	clear(@sum);
	n++;
}

tick-1ms
/n >= 400/
{
	exit(0);
}

END
{
	trunc(@big, 5);
	printa("cnt %d %@u\n", @cnt);
	printa("sum %d %s %@d\n", @sum);
	printa("avg %s %@d\n", @avg);
	printa("mm %d %@d %@d\n", @mm, @mx);
	printa(@q);
	printa(@lq);
	printa("sd %d %@d\n", @sd);
	printa("big %d %@u\n", @big);
}'

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$DTRACE" -x engine=interp -n "$S" >"$out/interp" 2>"$out/interp.err" ||
    fail "interp: $(head -3 "$out/interp.err")"
"$DTRACE" -x engine=bpf -n "$S" >"$out/slots" 2>"$out/slots.err" ||
    fail "bpf: $(head -3 "$out/slots.err")"
DTRACE_LINUX_NOFEATURE=agg_slots "$DTRACE" -x engine=bpf -n "$S" \
    >"$out/hash" 2>"$out/hash.err" ||
    fail "bpf with a per-CPU hash: $(head -3 "$out/hash.err")"
# Which firings come before the consumer has carried out a trunc() or a
# clear() is a matter of time: those two aggregations are checked apart.
for f in interp slots hash; do
	grep -vE '^(cnt|sum) ' "$out/$f" >"$out/$f.fixed"
done
for f in slots hash; do
	[ -s "$out/$f.err" ] && fail "$f: unexpected stderr: $(head -3 "$out/$f.err")"
	diff -u "$out/interp.fixed" "$out/$f.fixed" >"$out/$f.diff" ||
	    fail "bpf ($f) differs from the interpreter: $(head -30 "$out/$f.diff")"
	# Every key made again after trunc(), and fewer than the 57 or 58
	# firings of each without it; clear() keeps every key.
	awk '$1 == "cnt" { n++; if ($3 < 1 || $3 > 56) bad = 1 }
	    $1 == "sum" { s++ }
	    END { exit !(n == 7 && s == 5 && !bad) }' "$out/$f" ||
	    fail "bpf ($f): trunc() or clear(): $(grep -E '^(cnt|sum)' "$out/$f")"
done
# The figures themselves, not only their agreement.
grep -qx 'big 395 1' "$out/slots" && grep -qx 'big 399 1' "$out/slots" &&
    ! grep -qx 'big 394 1' "$out/slots" ||
    fail "trunc(@big, 5) kept the wrong keys: $(grep '^big' "$out/slots")"
[ "$(grep -c '^cnt ' "$out/slots")" -eq 7 ] ||
    fail "trunc() and new keys: $(grep '^cnt' "$out/slots")"

# Every CPU: one key's slot holds each CPU's values, summed when read.
M='profile-997 { @all["all"] = count(); @none = count(); }
tick-300ms { exit(0); }
END { printa("%@u ", @all); printa("%@u\n", @none); }'
for way in slots hash; do
	nf=
	[ $way = hash ] && nf=agg_slots
	got=$(DTRACE_LINUX_NOFEATURE=$nf "$DTRACE" -q -x engine=bpf -n "$M" 2>&1)
	set -- $got
	[ $# -eq 2 ] && [ "$1" = "$2" ] && [ "$1" -gt 0 ] ||
	    fail "$way: a key counted on every CPU and a count without keys differ: $got"
done
# New keys made at once on every CPU: two processes, each 50,000 calls,
# make 2,000 keys between them, most of them first seen on both CPUs at
# about the same time.  Not a count may be lost or doubled.
if command -v cc >/dev/null; then
	cc -O1 -o "$out/loop" "$top_srcdir/tests/bench/getppid_loop.c" ||
	    fail "cannot build getppid_loop"
	printf '#!/bin/sh\n"%s" 50000 >/dev/null & "%s" 50000 >/dev/null & wait\n' \
	    "$out/loop" "$out/loop" >"$out/two.sh"
	chmod +x "$out/two.sh"
	R='syscall::getppid:entry /execname == "loop"/ {
	    @k[(timestamp / 100) % 2000] = count(); @all = count(); }
	END { printa("all %@u\n", @all); printa("k %d %@u\n", @k); }'
	for way in slots hash; do
		nf=
		[ $way = hash ] && nf=agg_slots
		DTRACE_LINUX_NOFEATURE=$nf "$DTRACE" -q -x engine=bpf -n "$R" \
		    -c "$out/two.sh" >"$out/race.$way" 2>&1 ||
		    fail "$way: $(head -3 "$out/race.$way")"
		awk '$1 == "all" { all = $2 } $1 == "k" { n++; s += $3 }
		    END { exit !(all == 100000 && s == 100000 && n > 1000) }' \
		    "$out/race.$way" ||
		    fail "$way: keys made at once on every CPU lost or doubled counts: $(awk '$1 == "all" { print } $1 == "k" { n++; s += $3 } END { print n " keys, " s " counted" }' "$out/race.$way")"
	done
else
	echo "no C compiler (cc): keys made at once on every CPU not checked"
fi
echo "bpf (slots and per-CPU hash) agree with the interpreter"

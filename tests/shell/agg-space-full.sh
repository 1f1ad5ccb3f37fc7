#!/bin/bash
# SPDX-License-Identifier: MIT
# agg-space-full.sh: trunc() gives an aggregation's space back, but space
# that really is full still drops keys, and says so.  aggsize holds 16
# keys of @[int, int] = count() on either engine: a first tick adds 6 keys
# and truncates them, a second adds 20 keys at once.  The first 16 of
# those are recorded and printed; the other 4 are dropped, reported as
# "dtrace: N aggregation drops on CPU C" lines adding up to 4.
set -u

engines=interp
[ "$(id -u)" -eq 0 ] && engines="interp bpf"
S='int n;
tick-250ms /n == 0/ {
	@[n, 0] = count(); @[n, 1] = count(); @[n, 2] = count();
	@[n, 3] = count(); @[n, 4] = count(); @[n, 5] = count();
	trunc(@);
}
tick-250ms /n == 1/ {
	@[n, 0] = count(); @[n, 1] = count(); @[n, 2] = count();
	@[n, 3] = count(); @[n, 4] = count(); @[n, 5] = count();
	@[n, 6] = count(); @[n, 7] = count(); @[n, 8] = count();
	@[n, 9] = count(); @[n, 10] = count(); @[n, 11] = count();
	@[n, 12] = count(); @[n, 13] = count(); @[n, 14] = count();
	@[n, 15] = count(); @[n, 16] = count(); @[n, 17] = count();
	@[n, 18] = count(); @[n, 19] = count();
}
tick-250ms { n++; }
tick-250ms /n == 2/ { exit(0); }'
want=$(for k in $(seq 0 15); do printf '%9d%9d%17d\n' 1 "$k" 1; done)
fail=0
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
for e in $engines; do
	"$DTRACE" -q -x engine=$e -x aggsize=384 -x switchrate=10ms \
	    -x aggrate=10ms -x aggsortkey -n "$S" >"$out" 2>"$err"
	rc=$?
	got=$(grep . "$out")
	drops=$(awk '/^dtrace: [0-9]+ aggregation drops? on CPU [0-9]+$/ {
	    n += $2; next } { bad = 1 } END { print bad ? "bad" : n + 0 }' \
	    "$err")
	if [ $rc -ne 0 ] || [ "$got" != "$want" ] || [ "$drops" != 4 ]; then
		printf 'FAIL: %s: exit %d, %s drops\n--- want\n%s\n--- got\n' \
		    "$e" $rc "$drops" "$want"
		cat "$out" "$err"
		fail=1
	else
		echo "ok: $e: 16 keys recorded after trunc(), 4 dropped"
	fi
done
exit $fail

#!/bin/bash
# drops-ratelimit.sh: drops are reported at most once per CPU per status
# interval, as DTrace does, with every drop counted.  A 4k buffer drained
# 10 times a second while profile-4999 fills it on every CPU (kept busy:
# an idle virtual CPU may take no profile tick) overflows at every drain;
# in 3 seconds that is at most one line per CPU per second (plus the
# first report and the last), not one per drain -- and still some drops.
set -u

[ "$(id -u)" -eq 0 ] || { echo "needs root to load BPF programs"; exit 77; }
command -v taskset >/dev/null || { echo "needs taskset"; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ncpu=$(getconf _NPROCESSORS_ONLN)

spinners=()
for ((c = 0; c < ncpu; c++)); do
	taskset -c $c sh -c 'while :; do :; done' &
	spinners+=($!)
done
trap 'kill "${spinners[@]}" 2>/dev/null; rm -rf "$tmp"' EXIT
"$DTRACE" -b 4k -x switchrate=10hz -q \
    -n 'profile-4999 { trace(timestamp); trace(timestamp); trace(timestamp); }' \
    -n 'tick-3s { exit(0); }' >/dev/null 2>"$tmp/err"
rc=$?
kill "${spinners[@]}" 2>/dev/null
wait "${spinners[@]}" 2>/dev/null
if [ $rc -ne 0 ]; then
	echo "FAIL: dtrace exited $rc: $(head -3 "$tmp/err")"
	exit 1
fi
lines=$(grep -c ' drops\? on CPU ' "$tmp/err")
other=$(grep -vc ' drops\? on CPU ' "$tmp/err")
max=$((ncpu * 5))
echo "$lines drop lines on $ncpu CPUs in 3 s (at most $max)"
if [ "$lines" -eq 0 ]; then
	echo "FAIL: no drops reported from a 4k buffer"
	exit 1
fi
if [ "$lines" -gt "$max" ]; then
	echo "FAIL: drop reports not rate-limited"
	head -5 "$tmp/err"
	exit 1
fi
if [ "$other" -ne 0 ]; then
	echo "FAIL: unexpected messages: $(grep -v ' drops\? on CPU ' "$tmp/err" | head -3)"
	exit 1
fi
exit 0

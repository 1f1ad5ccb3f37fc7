#!/bin/bash
# SPDX-License-Identifier: MIT
# json-lines.sh: -x oformat=json prints JSON Lines and nothing else on
# stdout -- every line one JSON object of a known type, no blank line at
# the end or anywhere else -- however tracing ends (exit(), the end of a
# -c command, SIGINT) and whether the aggregations were printed by
# printa() or at the end of the run.
set -u

command -v jq >/dev/null || { echo "needs jq to parse the output"; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# check NAME FILE EXPECTED-TYPES: every line parses, none is empty, the
# file ends with a newline, and the types seen are EXPECTED-TYPES (the
# sorted, unique "type" values, space-separated).
check() {
	local name=$1 f=$2 want=$3 got
	if [ ! -s "$f" ]; then
		echo "FAIL $name: no output"; fail=1; return
	fi
	if grep -n '^[[:space:]]*$' "$f" >/dev/null; then
		echo "FAIL $name: blank line(s) at $(grep -n '^[[:space:]]*$' "$f" | cut -d: -f1 | tr '\n' ' ')"
		fail=1
	fi
	if [ "$(tail -c 1 "$f" | od -An -c | tr -d ' ')" != '\n' ]; then
		echo "FAIL $name: last line not terminated"; fail=1
	fi
	local n=0
	while IFS= read -r line; do
		n=$((n + 1))
		[ -z "$line" ] && continue
		if ! printf '%s\n' "$line" | jq -e 'type == "object" and has("type")' >/dev/null 2>&1; then
			echo "FAIL $name: line $n is not a JSON object with a type: $line"
			fail=1
		fi
	done <"$f"
	got=$(jq -r .type "$f" 2>/dev/null | sort -u | tr '\n' ' ' | sed 's/ $//')
	if [ "$got" != "$want" ]; then
		echo "FAIL $name: types '$got', expected '$want'"; fail=1
	fi
}

J=(-x oformat=json -x engine=interp)

# exit(): a firing with several records, a printa(), a fault, and an
# aggregation left for the end of the run.
"$DTRACE" "${J[@]}" -n '
    BEGIN { @c["a"] = count(); @q = quantize(5); printa(@c); trace(1);
        printf("x=%d\n", 7); }
    BEGIN { trace(*(int *)0); }
    BEGIN { exit(0); }' >"$tmp/exit.json" 2>"$tmp/exit.err" ||
	{ echo "FAIL exit: dtrace failed: $(cat "$tmp/exit.err")"; fail=1; }
check exit "$tmp/exit.json" "aggregation error probe"
# The values survive: printa's count, the end-of-run quantize bucket.
[ "$(jq -c 'select(.type=="probe") | .records[] | select(.action=="printa") | .aggregations[0].entries' "$tmp/exit.json")" = '[{"keys":["a"],"value":1}]' ] ||
	{ echo "FAIL exit: printa record"; fail=1; }
[ "$(jq -c 'select(.type=="aggregation" and .name=="q") | .entries[0].value.buckets' "$tmp/exit.json")" = '[{"min":4,"max":7,"count":1}]' ] ||
	{ echo "FAIL exit: quantize buckets"; fail=1; }

# Quiet: the firing that exits is still a probe object (its exit record).
"$DTRACE" "${J[@]}" -q -n 'BEGIN { @s = sum(3); @s = sum(4); exit(0); }' \
	>"$tmp/quiet.json" 2>"$tmp/quiet.err" ||
	{ echo "FAIL quiet: dtrace failed: $(cat "$tmp/quiet.err")"; fail=1; }
check quiet "$tmp/quiet.json" "aggregation probe"
[ "$(jq -c 'select(.type=="aggregation") | .entries' "$tmp/quiet.json")" = '[{"keys":[],"value":7}]' ] ||
	{ echo "FAIL quiet: sum"; fail=1; }

# No aggregation at all: the run's last line is the last firing's.
"$DTRACE" "${J[@]}" -n 'BEGIN { trace("s"); exit(0); }' \
	>"$tmp/noagg.json" 2>/dev/null
check noagg "$tmp/noagg.json" "probe"

# Tracing ended by SIGINT, the aggregation printed after it.
"$DTRACE" "${J[@]}" -n 'tick-10ms { @n = count(); }' \
	>"$tmp/intr.json" 2>"$tmp/intr.err" &
dpid=$!
for _ in $(seq 100); do
	grep -q matched "$tmp/intr.err" 2>/dev/null && break
	sleep 0.1
done
sleep 0.3
kill -INT "$dpid"
wait "$dpid"
check sigint "$tmp/intr.json" "aggregation"

# Tracing ended by the end of the -c command.
"$DTRACE" "${J[@]}" -n 'END { @e = max(9); }' -c /bin/true \
	>"$tmp/cmd.json" 2>/dev/null
check command "$tmp/cmd.json" "aggregation"

exit $fail

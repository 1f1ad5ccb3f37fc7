#!/bin/bash
# SPDX-License-Identifier: MIT
# compile-deep.sh: deep expressions either compile or get one error line,
# never a crash.  Long chains of left-associative operators (10,000 to
# 100,000 deep, in actions, predicates and aggregation keys) compile;
# past 100,000 levels, and for nesting deeper than the parser takes
# (parentheses, unary operators, ?:, assignments), the compile fails with
# one "dtrace: failed to compile script" line.  A generated predicate of
# 7,000 terms compiles and runs (on the interpreter, which needs no root).
set -u

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

gen() {
	python3 - "$@" <<'PY'
import sys
kind, n = sys.argv[1], int(sys.argv[2])
chain = lambda op, t: op.join([t] * (n + 1))
forms = {
    'add': 'BEGIN { x = %s; }' % chain('+', '1'),
    'addvar': 'BEGIN { x = %s; }' % chain('+', 'pid'),
    'land': 'BEGIN { x = %s; }' % chain('&&', 'pid'),
    'lor': 'BEGIN /%s/ { }' % chain('||', 'pid == 0'),
    'eq': 'BEGIN { x = %s; }' % chain('==', 'pid'),
    'comma': 'BEGIN { x = (%s); }' % chain(',', 'pid'),
    'key': 'BEGIN { @[%s] = count(); }' % chain('+', 'pid'),
    'member': 'BEGIN { x = curthread%s; }' % ('->parent' * n),
    'paren': 'BEGIN { x = %s1%s; }' % ('(' * n, ')' * n),
    'unary': 'BEGIN { x = %s1; }' % ('- ' * n),
    'not': 'BEGIN { x = %s1; }' % ('!' * n),
    'ternary': 'BEGIN { x = %s0; }' % ('pid ? 1 : ' * n),
    'assign': 'BEGIN { %s1; }' % ('x = ' * n),
    'arraydecl': 'int a%s; BEGIN { }' % ('[1]' * n),
}
print(forms[kind])
PY
}

# expect KIND N ok|error: compile with -e; "ok" must exit 0 silently,
# "error" must exit 1 with exactly one line naming the script.
expect() {
	local out rc
	gen "$1" "$2" >"$tmp/s.d"
	out=$("$DTRACE" -e -s "$tmp/s.d" 2>&1)
	rc=$?
	if [ "$3" = ok ]; then
		if [ $rc -ne 0 ] || [ -n "$out" ]; then
			echo "FAIL: $1 x $2 should compile: exit $rc: ${out:0:300}"
			fail=1
		fi
	elif [ $rc -ne 1 ] || [ "$(printf '%s\n' "$out" | wc -l)" -ne 1 ] ||
	    [[ "$out" != "dtrace: failed to compile script $tmp/s.d: line 1: "* ]]; then
		echo "FAIL: $1 x $2 should give one error line: exit $rc:" \
		    "${out:0:300}"
		fail=1
	fi
}

# Chains of constants fold; others make code, up to DIF's 65,536
# instructions (a clean error past them).
for k in add addvar land eq key comma member; do
	expect $k 10000 ok
done
expect add 99999 ok
expect add 100000 error
expect add 300000 error
for k in addvar land eq key; do
	expect $k 50000 error
done
expect lor 7000 ok
# A declarator of 100,000 derivations is refused as it is built (it was
# quadratic: minutes).
expect arraydecl 100000 error
for k in paren unary not ternary assign; do
	expect $k 100 ok
	expect $k 50000 error
done

# The 7,000-term predicate runs: only its last term holds.
python3 - >"$tmp/p.d" <<'PY'
terms = ['pid == %d' % -i for i in range(1, 7000)] + ['pid != 0']
print('BEGIN /%s/ { trace("matched"); exit(0); }' % ' || '.join(terms))
print('BEGIN { trace("no match"); exit(0); }')
PY
out=$("$DTRACE" -x engine=interp -q -s "$tmp/p.d" 2>&1)
if [ "$out" != matched ]; then
	echo "FAIL: 7,000-term predicate: ${out:0:300}"
	fail=1
fi
# And the same chain of && with one false term does not match.
python3 - >"$tmp/q.d" <<'PY'
terms = ['pid != %d' % -i for i in range(1, 7000)] + ['pid == 0']
print('BEGIN /%s/ { trace("matched"); exit(0); }' % ' && '.join(terms))
print('BEGIN { trace("no match"); exit(0); }')
PY
out=$("$DTRACE" -x engine=interp -q -s "$tmp/q.d" 2>&1)
if [ "$out" != "no match" ]; then
	echo "FAIL: 7,000-term && predicate: ${out:0:300}"
	fail=1
fi
exit $fail

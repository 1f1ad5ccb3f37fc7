#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/conformance/run.sh: DTrace's own test suite, run against our dtrace,
# with a ratchet.
#
# The suite is not part of this project: it is looked for beside the
# checkout (../shared/conformance, or $DTRACE_CONFORMANCE).  Without it (or
# without root) this prints one SKIP line saying why and exits 0.  With it,
# every test of portable.list (which holds language.list) runs against the
# built dtrace, in shards at once (most of a test's time is spent waiting,
# not computing), and the failures are compared with expected-failures.txt:
#
#   - a test that fails and is not listed fails this run ("newly failing");
#   - a listed test that passes fails this run too, so that the list only
#     ever shrinks ("newly passing: remove it from the list");
#   - a test whose reason begins "flaky:" may do either.
#
# A test that fails unexpectedly is run once more on its own before it
# counts, so a machine under load does not fail CI.  The pass rates of
# language.list and portable.list are printed (passed / (passed + failed)),
# and per category.
#
# Usage: run.sh [DTRACE]      (default: $top_builddir/cmd/dtrace)
#        JOBS=N  shards run at once (default 3), plus one more for the
#                tests that declare a timeout over a minute (@@timeout),
#                so that one long test does not hold a whole shard back
#        KEEP=DIR keep logs (each test's command, output and diff) in DIR
set -u

here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=${top_srcdir:-$(cd "$here/../.." && pwd)}
dtrace=${1:-${top_builddir:-$top_srcdir/build}/cmd/dtrace}
dtrace=$(realpath "$dtrace")
suite=${DTRACE_CONFORMANCE:-$top_srcdir/../shared/conformance}
expected=$here/expected-failures.txt
jobs=${JOBS:-3}

if [ ! -x "$suite/run-suite" ] || [ ! -d "$suite/suite" ]; then
	echo "SKIP  conformance: no DTrace test suite at $suite"
	exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP  conformance: the suite loads BPF programs and needs root"
	exit 0
fi

# A sanitizer build's leak reports would land in the stderr the suite
# compares; leaks are our own tests' business (make check), not DTrace's.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}

work=$(mktemp -d "${TMPDIR:-/tmp}/dtrace-conformance.XXXXXX")
trap 'rm -rf "$work"' EXIT
logs=${KEEP:-$work/logs}
mkdir -p "$logs"

run_list() { # run_list LISTFILE OUTFILE
	"$suite/run-suite" -t 20 --log-dir "$logs" "$dtrace" "$suite/suite" \
	    "$1" >"$2" 2>&1
}

# Shards: every JOBS-th test, so slow categories spread over all of them.
grep -v -e '^#' -e '^[[:space:]]*$' "$suite/portable.list" >"$work/all"
: >"$work/long"
while read -r t; do
	f=$suite/suite/$t
	[ -f "$f" ] && grep -Eq '@@timeout:[[:space:]]*([6-9][0-9]|[0-9]{3,})' \
	    "$f" && echo "$t" >>"$work/long"
done <"$work/all"
grep -vxFf "$work/long" "$work/all" >"$work/short"
for ((i = 0; i < jobs; i++)); do
	awk -v n="$jobs" -v i="$i" 'NR % n == i' "$work/short" >"$work/shard.$i"
	run_list "$work/shard.$i" "$work/out.$i" &
done
[ -s "$work/long" ] && run_list "$work/long" "$work/out.long" &
wait
cat "$work"/out.* | grep -E '^(PASS|FAIL|SKIP) ' >"$work/results"

# Unexpected failures get one more run, alone.
awk '$1 == "FAIL" { print $2 }' "$work/results" | sort -u >"$work/failed"
sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$expected" |
    awk '{ print $1 }' | sort -u >"$work/listed"
grep '^[^#].*[[:space:]]flaky:' "$expected" | awk '{ print $1 }' |
    sort -u >"$work/flaky"
comm -23 "$work/failed" "$work/listed" >"$work/retry"
if [ -s "$work/retry" ]; then
	run_list "$work/retry" "$work/out.retry"
	grep -E '^PASS ' "$work/out.retry" | awk '{ print $2 }' |
	    sort -u >"$work/passed-on-retry"
	comm -23 "$work/failed" "$work/passed-on-retry" >"$work/failed.2"
	mv "$work/failed.2" "$work/failed"
fi
awk '$1 == "PASS" { print $2 }' "$work/results" | sort -u >"$work/passed"
cat "$work/passed-on-retry" 2>/dev/null >>"$work/passed"
sort -u -o "$work/passed" "$work/passed"

# Pass rates.
rate() { # rate NAME LISTFILE
	local p f
	p=$(grep -cxFf "$2" "$work/passed")
	f=$(grep -cxFf "$2" "$work/failed")
	awk -v n="$1" -v p="$p" -v f="$f" 'BEGIN {
		printf "conformance: %-14s %4d passed, %4d failed: %.1f%%\n",
		    n, p, f, (p + f) ? 100 * p / (p + f) : 0 }'
}
grep -v -e '^#' -e '^[[:space:]]*$' "$suite/language.list" >"$work/language"
grep '/err\.' "$work/all" >"$work/err"
echo
awk '
	FILENAME ~ /passed$/ { pass[$1] = 1; next }
	FILENAME ~ /failed$/ { fail[$1] = 1; next }
	{
		c = $1; sub(/^test\/unittest\//, "", c); sub(/\/[^\/]*$/, "", c)
		if ($1 in pass) p[c]++; else if ($1 in fail) f[c]++
		seen[c] = 1
	}
	END {
		printf "%-22s %5s %5s\n", "category", "pass", "fail"
		n = asorti(seen, cats)
		for (i = 1; i <= n; i++)
			printf "%-22s %5d %5d\n", cats[i], p[cats[i]], f[cats[i]]
	}' "$work/passed" "$work/failed" "$work/all"
echo
rate language.list "$work/language"
rate portable.list "$work/all"
rate "err.* tests" "$work/err"

# The ratchet.
status=0
comm -23 "$work/failed" "$work/listed" >"$work/new-fail"
comm -12 "$work/passed" "$work/listed" | comm -23 - "$work/flaky" \
    >"$work/new-pass"
while read -r t; do
	echo "FAIL  conformance: newly failing: $t"
	[ -f "$logs/${t//\//-}.info" ] &&
	    sed -e 's/^/      | /' "$logs/${t//\//-}.info" | head -n 40
	status=1
done <"$work/new-fail"
while read -r t; do
	echo "FAIL  conformance: newly passing, remove it from" \
	    "tests/conformance/expected-failures.txt: $t"
	status=1
done <"$work/new-pass"
[ $status -eq 0 ] && echo "PASS  conformance: failures as listed"
exit $status

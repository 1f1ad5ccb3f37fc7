#!/bin/bash
# SPDX-License-Identifier: MIT
# run-tests.sh: the one test runner, run by `make check`.
#
# It runs four kinds of test and ends with "N passed, M failed, K skipped":
#
#   unit    C programs listed in $UNIT_TESTS (paths under the build tree).
#           Exit 0 passes, 77 skips (last line of output is the reason),
#           anything else fails.
#   shell   self-checking scripts listed in $SHELL_TESTS (paths under the
#           source tree), with the same exit convention.
#   cmd     tests/cmd/NAME.sh with tests/cmd/NAME.out: the script runs
#           dtrace(1) (as "$DTRACE"); its stdout and stderr, merged, plus a
#           final line "exit N" must equal NAME.out byte for byte.
#   D       tests/d/**/NAME.d, run as `dtrace [options] -s NAME.d [args]`
#           from the script's directory.  NAME.out, if present, is the
#           exact stdout; NAME.err, if present, the exact stderr.  A test
#           with NAME.err is expected to exit 1, otherwise 0.
#
# A D test may carry directives on lines of its own, anywhere in the file:
#
#   @options: -q -x strsize=64     extra dtrace(1) options
#   @args: foo 42                  operands after the script ($1, $2, ...)
#   @status: 2                     expected exit status
#   @requires: root                skip, with the reason, unless satisfied
#                                  (also btf, os:NAME, isa:MACHINE as
#                                  uname -m says, cmd:PROGRAM,
#                                  feature:NAME -- see below)
#   @timeout: 30                   seconds before the test fails (default 60)
#   @cpu: 0                        run pinned to this CPU (taskset), so the
#                                  CPU column of non-quiet output is stable
#   @engines: bpf                  the engines to run it on (see below)
#   @serial: timing                run alone, not beside other tests (it
#                                  times a rate that a busy CPU upsets)
#
# A D test that runs (no -e among its options) runs once per engine, with
# -x engine=interp and -x engine=bpf, and both must give the expected
# output: that is the differential test of the two engines.  The BPF run
# needs root; a test of kernel probes names only bpf.  The tests of
# tests/d/{run,spec,bufpolicy} that run on bpf run once more as
# "bpf-perfbuf": the BPF engine on a kernel without a BPF ring buffer
# (DTRACE_LINUX_NOFEATURE=ringbuf), whose records go through per-CPU
# perf buffers instead, and must print the same bytes.  (Not drops/:
# a perf buffer takes whole pages and 8 more bytes a record, so which
# record of a full buffer is dropped differs.)
#
# Requirements known here: root, btf (the running kernel's types are in
# /sys/kernel/btf/vmlinux), cmd:PROGRAM (PROGRAM is on PATH), os:NAME
# (dtrace is built with the OS backend NAME, $DTRACE_OS: a test of its
# providers, types or D library), feature:NAME (the kernel has the BPF
# feature NAME as the engine's feature probe finds it, e.g. atomic_fetch,
# which Linux 5.10 lacks; a D test's runs on other engines than bpf do
# not need it, and still run).  An unknown requirement fails the test
# rather than skipping it, so a typo cannot hide a test.  A cmd test
# may carry @requires: too, on a comment line.
#
# In a build without an OS backend (configure --with-os=none) the
# interpreter is the only engine: D tests run on it alone, and those
# naming only other engines are skipped, saying so.
#
# Usage: run-tests.sh [PATTERN]   runs only tests whose name contains PATTERN.
#        TEST_JOBS=N               D tests run at once (default: nproc)
#        TEST_EXEC="qemu-aarch64 -L /usr/aarch64-linux-gnu"
#                                  runs the unit tests through it (a cross
#                                  build: `make check TESTS_FILTER=unit/`)
#        TEST_TIMEOUT_SCALE=N      multiplies the cmd and D tests' timeouts
#                                  (default 1): for an emulated machine

set -u

: "${top_srcdir:?top_srcdir must be set}"
: "${top_builddir:?top_builddir must be set}"
: "${DTRACE:=$top_builddir/cmd/dtrace}"
: "${DTRACE_OS:=linux}"
export top_srcdir top_builddir DTRACE DTRACE_OS

filter=${1:-}
tscale=${TEST_TIMEOUT_SCALE:-1}
case $tscale in
'' | *[!0-9]* | 0) echo "TEST_TIMEOUT_SCALE must be a positive integer" >&2; exit 2 ;;
esac
npass=0
nfail=0
nskip=0
failed=()
work=$(mktemp -d "${TMPDIR:-/tmp}/dtrace-tests.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Runs of dtrace under the sanitizers report leaks at exit; keep their
# reports on stderr where the comparison sees them.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

selected() {
	[ -z "$filter" ] || [[ $1 == *"$filter"* ]]
}

pass() {
	npass=$((npass + 1))
	printf 'PASS  %s\n' "$1"
}

fail() {
	nfail=$((nfail + 1))
	failed+=("$1")
	printf 'FAIL  %s: %s\n' "$1" "$2"
	if [ -n "${3:-}" ] && [ -s "$3" ]; then
		sed -e 's/^/      | /' "$3" | head -n 60
	fi
}

skip() {
	nskip=$((nskip + 1))
	printf 'SKIP  %s: %s\n' "$1" "$2"
}

# Run a program with the 0/77/other convention.
run_selfcheck() {
	local name=$1
	shift
	local out=$work/out status
	"$@" >"$out" 2>&1
	status=$?
	case $status in
	0) pass "$name" ;;
	77) skip "$name" "$(tail -n 1 "$out")" ;;
	*) fail "$name" "exit status $status" "$out" ;;
	esac
}

# Check requirements; print the reason a test cannot run, or "!reason" if
# the requirement itself is wrong.
# Whether kernel BPF feature $1 is missing, as the engine's own feature
# probe finds it (with DTRACE_LINUX_NOFEATURE as the caller set it);
# feature_why says what the probe said.
feature_why=
feature_missing() {
	local probe=$top_builddir/tests/unit/bpf_features_test line
	if [ ! -x "$probe" ]; then
		feature_why="this build has no BPF engine"
		return 0
	fi
	line=$($probe 2>&1 | awk -v f="$1" '$1 == f { $1 = ""; print; exit }')
	feature_why=${line# }
	feature_why=${feature_why#no: }
	[ -n "$feature_why" ] || feature_why="no such feature"
	[ "$feature_why" != yes ]
}

unmet_requirement() {
	local req
	for req in "$@"; do
		case $req in
		root)
			[ "$(id -u)" -eq 0 ] || {
				echo "needs root"
				return
			}
			;;
		btf)
			[ -r /sys/kernel/btf/vmlinux ] || {
				echo "needs kernel BTF (/sys/kernel/btf/vmlinux)"
				return
			}
			;;
		os:*)
			[ "${req#os:}" = "$DTRACE_OS" ] || {
				echo "needs the ${req#os:} backend (this" \
				    "dtrace is built --with-os=$DTRACE_OS)"
				return
			}
			;;
		isa:*)
			[ "${req#isa:}" = "$(uname -m)" ] || {
				echo "needs an ${req#isa:} processor (its" \
				    "registers or instructions)"
				return
			}
			;;
		feature:*)
			feature_missing "${req#feature:}" && {
				echo "needs the kernel's ${req#feature:}" \
				    "(the BPF feature probe: $feature_why)"
				return
			}
			;;
		cmd:*)
			command -v "${req#cmd:}" >/dev/null 2>&1 || {
				echo "needs ${req#cmd:} on PATH"
				return
			}
			;;
		*)
			echo "!unknown requirement '$req'"
			return
			;;
		esac
	done
}

directive() {
	sed -n "s/^.*@$1:[[:space:]]*\\(.*[^[:space:]]\\)[[:space:]]*\$/\\1/p" \
	    "$2" | head -n 1
}

# Compare a file with the expected one; on a difference, show it, and
# the unchecked stderr ($5) if any: a drop or error message there is
# often the cause of a difference that happens once.
compare() {
	local name=$1 what=$2 want=$3 got=$4 also=${5:-}
	if ! cmp -s "$want" "$got"; then
		diff -u "$want" "$got" >"$work/diff" 2>&1
		if [ -n "$also" ] && [ -s "$also" ]; then
			echo "stderr (not compared):" >>"$work/diff"
			cat "$also" >>"$work/diff"
		fi
		fail "$name" "$what differs from ${want#"$top_srcdir"/}" \
		    "$work/diff"
		return 1
	fi
	return 0
}

run_unit_tests() {
	local t
	for t in ${UNIT_TESTS:-}; do
		selected "$t" || continue
		# shellcheck disable=SC2086 # a command and its options
		run_selfcheck "unit/${t##*/}" ${TEST_EXEC:-} "$top_builddir/$t"
	done
}

run_shell_tests() {
	local t
	for t in ${SHELL_TESTS:-}; do
		selected "$t" || continue
		run_selfcheck "${t#tests/}" bash "$top_srcdir/$t"
	done
}

run_cmd_tests() {
	local sh name status why
	for sh in "$top_srcdir"/tests/cmd/*.sh; do
		[ -e "$sh" ] || continue
		name=cmd/$(basename "$sh" .sh)
		selected "$name" || continue
		# shellcheck disable=SC2046
		why=$(unmet_requirement $(directive requires "$sh"))
		case $why in
		'!'*)
			fail "$name" "${why#!}"
			continue
			;;
		?*)
			skip "$name" "$why"
			continue
			;;
		esac
		if [ ! -f "${sh%.sh}.out" ]; then
			fail "$name" "no expected output ${sh%.sh}.out"
			continue
		fi
		(cd "$work" && timeout $((60 * tscale)) bash "$sh") \
		    >"$work/got" 2>&1
		status=$?
		echo "exit $status" >>"$work/got"
		compare "$name" "output" "${sh%.sh}.out" "$work/got" &&
		    pass "$name"
	done
}

# Run one D test once, on one engine ("" for the default).
run_d_test_once() {
	local d=$1 engine=$2 name dir base opts args want_status status reqs
	local why tmo pin nofeature=
	dir=$(dirname "$d")
	base=$(basename "$d" .d)
	name=${d#"$top_srcdir"/tests/}${engine:+ [$engine]}
	reqs=$(directive requires "$d")
	# The kernel's features matter to the BPF engine alone.
	if [ "${engine%-*}" = bpf ]; then
		reqs="root $reqs"
	else
		reqs=$(echo "$reqs" | sed 's/feature:[^[:space:]]*//g')
	fi
	# Features the caller disabled (a run as an older kernel would be)
	# stay disabled; bpf-perfbuf disables the ring buffer too.
	nofeature=${DTRACE_LINUX_NOFEATURE:-}
	[ "$engine" = bpf-perfbuf ] && nofeature=${nofeature:+$nofeature,}ringbuf
	# shellcheck disable=SC2086
	why=$(DTRACE_LINUX_NOFEATURE=$nofeature unmet_requirement $reqs)
	case $why in
	'!'*)
		fail "$name" "${why#!}"
		return
		;;
	?*)
		skip "$name" "$why"
		return
		;;
	esac
	# The D library files of the source tree, not the installed ones.
	opts="-x syslibdir=$top_srcdir/common/lib:$top_srcdir/os/$DTRACE_OS/lib"
	opts="$opts $(directive options "$d")"
	opts="$opts${engine:+ -x engine=${engine%-*}}"
	args=$(directive args "$d")
	tmo=$(directive timeout "$d")
	pin=$(directive cpu "$d")
	want_status=$(directive status "$d")
	if [ -z "$want_status" ]; then
		if [ -f "$dir/$base.err" ]; then want_status=1; else want_status=0; fi
	fi
	# shellcheck disable=SC2086
	(cd "$dir" && DTRACE_LINUX_NOFEATURE=$nofeature \
	    timeout $((${tmo:-60} * tscale)) ${pin:+taskset -c "$pin"} \
	    "$DTRACE" $opts -s "$base.d" $args) \
	    >"$work/stdout" 2>"$work/stderr" </dev/null
	status=$?
	if [ "$status" -eq 124 ]; then
		fail "$name" "timed out after ${tmo:-60}s" "$work/stderr"
		return
	fi
	if [ "$status" -ne "$want_status" ]; then
		cat "$work/stdout" "$work/stderr" >"$work/both"
		fail "$name" "exit status $status, want $want_status" \
		    "$work/both"
		return
	fi
	if [ -f "$dir/$base.out" ]; then
		compare "$name" "stdout" "$dir/$base.out" "$work/stdout" \
		    "$([ -f "$dir/$base.err" ] || echo "$work/stderr")" ||
		    return
	fi
	if [ -f "$dir/$base.err" ]; then
		compare "$name" "stderr" "$dir/$base.err" "$work/stderr" ||
		    return
	fi
	pass "$name"
}

run_d_test() {
	local d=$1 base engines e
	base=${d%.d}
	if [ ! -f "$base.out" ] && [ ! -f "$base.err" ]; then
		fail "${d#"$top_srcdir"/tests/}" \
		    "neither $(basename "$base").out nor .err exists"
		return
	fi
	# Compile-only tests run no engine.
	if [[ " $(directive options "$d") " == *" -e "* ]]; then
		run_d_test_once "$d" ""
		return
	fi
	engines=$(directive engines "$d")
	engines=${engines:-interp bpf}
	if [ "$DTRACE_OS" = none ]; then
		if [[ " $engines " != *" interp "* ]]; then
			skip "${d#"$top_srcdir"/tests/}" "needs the $engines engine, which a --with-os=none build has not"
			return
		fi
		engines=interp
	fi
	for e in $engines; do
		run_d_test_once "$d" "$e"
		case $e:${d#"$top_srcdir"/tests/d/} in
		bpf:run/* | bpf:spec/* | bpf:bufpolicy/*)
			run_d_test_once "$d" bpf-perfbuf
			;;
		esac
	done
}

# The D tests run in $TEST_JOBS workers at once (default: the number of
# CPUs), each with its own scratch directory; most of a test's time is
# dtrace starting and waiting, not computing.  Each worker's lines are
# printed together when all are done, and its counts added to ours.
run_d_tests() {
	local jobs=${TEST_JOBS:-$(nproc)} i w p f k
	find "$top_srcdir/tests" -name '*.d' -path '*/tests/d/*' |
	    LC_ALL=C sort >"$work/dtests"
	for ((i = 0; i < jobs; i++)); do
		w=$work/worker.$i
		mkdir -p "$w"
		(
			work=$w
			npass=0 nfail=0 nskip=0 failed=()
			n=0
			while IFS= read -r d; do
				selected "${d#"$top_srcdir"/tests/}" || continue
				n=$((n + 1))
				[ $((n % jobs)) -eq "$i" ] || continue
				[ -n "$(directive serial "$d")" ] && continue
				run_d_test "$d"
			done <"$work/../dtests"
			echo "$npass $nfail $nskip" >"$w.counts"
			[ ${#failed[@]} -eq 0 ] ||
			    printf '%s\n' "${failed[@]}" >"$w.failed"
		) >"$w.log" 2>&1 &
	done
	wait
	for ((i = 0; i < jobs; i++)); do
		w=$work/worker.$i
		cat "$w.log"
		if ! read -r p f k <"$w.counts"; then
			fail "d/ (worker $i)" "the worker stopped before its end"
			continue
		fi
		npass=$((npass + p)) nfail=$((nfail + f)) nskip=$((nskip + k))
		[ -f "$w.failed" ] && mapfile -t -O "${#failed[@]}" failed <"$w.failed"
	done
	# Those that time a rate run alone, after the others.
	while IFS= read -r d; do
		selected "${d#"$top_srcdir"/tests/}" || continue
		[ -n "$(directive serial "$d")" ] && run_d_test "$d"
	done <"$work/dtests"
}

run_unit_tests
run_shell_tests
run_cmd_tests
run_d_tests

echo
if [ "$nfail" -gt 0 ]; then
	echo "Failed tests:"
	printf '  %s\n' "${failed[@]}"
fi
echo "$npass passed, $nfail failed, $nskip skipped"
[ "$nfail" -eq 0 ]

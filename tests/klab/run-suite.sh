#!/bin/bash
# SPDX-License-Identifier: MIT
# run-suite.sh [-n] [-b BUILDDIR] [-c CPUS] [-t SECS] [-f PARTS] [KERNEL...]: the whole
# test suite (`make check`) on several kernels, and one table of the
# results.  A KERNEL is "host" (this machine's own kernel, run natively)
# or a kernel directory unpacked by ../shared/kernel-lab/klab-get-kernel
# (e.g. Debian's 6.1 and 6.12), booted in the kernel lab's QEMU guest.
# With no KERNEL: host, then $KLAB_KERNELS/K61 and $KLAB_KERNELS/K612
# (KLAB_KERNELS defaults to ~/.cache/klab).
#
# The suite runs in the build tree (default build/, configured and built
# here first, with the check programs): the lab guest sees this machine's
# files read-only and the build tree read-write, so every kernel runs the
# same binaries.  Each kernel's log is BUILDDIR/klab-suite/NAME.log, and
# the kernel features as the feature probe finds them (the unit test
# bpf_features_test prints them) BUILDDIR/klab-suite/NAME.features.
#
# -t SECS bounds each guest run (default 10800: under QEMU's emulation,
# without KVM, the suite runs 5-15 times slower than natively); -f PARTS
# runs those parts (TESTS_FILTER patterns, separated by spaces, e.g.
# "shell/ d/run/"; "d/" is every directory of tests/d, one part each)
# rather than the whole suite; -n runs nothing and
# prints the table of the logs of an earlier run; -c CPUS gives the guest
# that many CPUs (klab-run's default: one without KVM, where QEMU's
# emulation can rarely upset the kernel's text patching on several) and
# runs that many D tests at once.  klab-run is found as
# $KLAB_RUN, on PATH, or at ../shared/kernel-lab/klab-run beside the
# source tree (or beside the directory holding it, for a git worktree).
# Kernels run one after the other: each guest wants the CPUs to itself.
#
# Exits 0 when no test failed on any kernel.  This is a manual or
# periodic run, not part of `make check` (README.md, "Testing on other
# kernels").
set -u

root=$(cd "$(dirname "$0")/../.." && pwd)
build=$root/build
tmo=10800
filter=
run=true
cpus=
while getopts nb:c:t:f: opt; do
	case $opt in
	n) run=false ;;
	c) cpus=$OPTARG ;;
	b) build=$OPTARG ;;
	t) tmo=$OPTARG ;;
	f) filter=$OPTARG ;;
	*)
		echo "usage: $0 [-n] [-b BUILDDIR] [-c CPUS] [-t SECS] [-f PARTS] [KERNEL...]" >&2
		exit 2
		;;
	esac
done
shift $((OPTIND - 1))
kdirs=${KLAB_KERNELS:-$HOME/.cache/klab}
[ $# -gt 0 ] || set -- host "$kdirs/K61" "$kdirs/K612"
for k in "$@"; do
	[ "$k" = host ] || [ -d "$k" ] || {
		echo "$0: $k: no such kernel directory" \
		    "(../shared/kernel-lab/klab-get-kernel makes one)" >&2
		exit 2
	}
done
klab=${KLAB_RUN:-$(command -v klab-run)}
# Next to the checkout, or to the main checkout of a git worktree.
for d in "$root/.." "$root/../.."; do
	[ -n "$klab" ] || [ ! -x "$d/shared/kernel-lab/klab-run" ] ||
	    klab=$d/shared/kernel-lab/klab-run
done
need_klab=false
for k in "$@"; do [ "$k" = host ] || need_klab=true; done
if $run && $need_klab && [ ! -x "$klab" ]; then
	echo "$0: klab-run not found (set KLAB_RUN)" >&2
	exit 2
fi

[ -f "$build/Makefile" ] || {
	echo "$0: $build is not a configured build tree (-b BUILDDIR)" >&2
	exit 2
}
build=$(cd "$build" && pwd)
# Build everything make check needs, running no test, so that the guest
# only runs them.
! $run || make -s -C "$build" -j2 check TESTS_FILTER=@build-only@ >/dev/null || {
	echo "$0: the build failed in $build" >&2
	exit 1
}
out=$build/klab-suite
mkdir -p "$out"

# The command each kernel runs, in the build tree: its release, its
# features, then the suite in parts (make check TESTS_FILTER=part/), each
# with its own summary, so that what finished counts when a slow guest
# runs out of time: the shell tests first, which depend the most on the
# kernel, then the rest.
# A part "d/" is every directory of tests/d, each a part of its own: as
# one TESTS_FILTER pattern, "d/" would also match every cmd/ test, and
# a guest cut short would count none of the D tests.  compile/ and
# errors/ come last: their tests mostly only compile, where the kernel
# matters least, and they are the most numerous.
d_parts=
for d in "$root"/tests/d/*/; do
	case $(basename "$d") in compile | errors) continue ;; esac
	d_parts="$d_parts d/$(basename "$d")/"
done
d_parts="$d_parts d/compile/ d/errors/"
parts=
for part in ${filter:-unit/ shell/ cmd/ d/}; do
	if [ "$part" = d/ ]; then
		parts="$parts$d_parts"
	else
		parts="$parts $part"
	fi
done
guest_cmd="uname -r >klab-suite/\$K.features;
	tests/unit/bpf_features_test >>klab-suite/\$K.features 2>&1;
	for part in $parts; do
		echo \"== make check TESTS_FILTER=\$part\";
		make -s check TESTS_FILTER=\$part 2>&1;
	done >klab-suite/\$K.log"

names=()
for k in "$@"; do
	if [ "$k" = host ]; then
		name=host
	else
		kdir=$(cd "$k" && pwd)
		name=$(basename "$kdir")
	fi
	names+=("$name")
	$run || continue
	rm -f "$out/$name.log" "$out/$name.features"
	start=$(date +%s)
	echo "run-suite: $name: running make check${filter:+ TESTS_FILTER=$filter}" \
	    "(log: $out/$name.log)"
	if [ "$k" = host ]; then
		(cd "$build" && K=$name sh -c "$guest_cmd")
	else
		# Without KVM the guest is emulated, 5-15 times slower:
		# the tests' timeouts stretch, and the few that would take
		# an hour there say so and skip.
		# (klab-run uses KVM where the CPU shows vmx or svm.)
		scale=${TEST_TIMEOUT_SCALE:-1}
		{ [ -w /dev/kvm ] && grep -qwE 'vmx|svm' /proc/cpuinfo; } ||
		    scale=${TEST_TIMEOUT_SCALE:-5}
		"$klab" -t "$tmo" ${cpus:+-c "$cpus"} -w "$build" "$kdir" \
		    env K="$name" ${cpus:+TEST_JOBS="$cpus"} \
		    TEST_TIMEOUT_SCALE="$scale" sh -c "$guest_cmd"
	fi
	echo "run-suite: $name: exit $? after $(($(date +%s) - start)) s"
done

# The table: a kernel a row; the features probed, and those missing.
echo
printf '| kernel | passed | failed | skipped | features missing (of %s probed) |\n' \
    "$(awk '$2 == "yes" || $2 == "no:" { n++ } END { print n + 0 }' \
    "$out/${names[0]}.features" 2>/dev/null)"
echo '| --- | ---: | ---: | ---: | --- |'
worst=0
for name in "${names[@]}"; do
	rel=$(head -n 1 "$out/$name.features" 2>/dev/null)
	# The parts' summaries, added; a part cut short has none.
	counts=$(awk '/^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$/ {
		p += $1; f += $3; s += $5; n++ }
	    /^== make check/ { parts++ }
	    END { if (n) print p, f, s, parts - n }' "$out/$name.log" 2>/dev/null)
	if [ -n "$counts" ]; then
		read -r p f s cut <<<"$counts"
		[ "$cut" = 0 ] || f="$f (+$cut parts unfinished)"
	else
		p='?' f='? (no summary: see the log)' s='?'
	fi
	[ "$f" = 0 ] || worst=1
	missing=$(awk '$2 == "no:" { printf "%s%s", sep, $1; sep = ", " }' \
	    "$out/$name.features" 2>/dev/null)
	[ -n "$missing" ] || { [ -s "$out/$name.features" ] && missing=none; }
	printf '| %s (%s) | %s | %s | %s | %s |\n' "${rel:-?}" "$name" "$p" \
	    "$f" "$s" "${missing:-?}"
done
# What failed where, as the logs list them.
for name in "${names[@]}"; do
	failed=$(sed -n '/^Failed tests:$/,/^[0-9]/s/^  //p' \
	    "$out/$name.log" 2>/dev/null | paste -sd, | sed 's/,/, /g')
	[ -z "$failed" ] || echo "$name failed: $failed"
done
exit "$worst"

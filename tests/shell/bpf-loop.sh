#!/bin/bash
# SPDX-License-Identifier: MIT
# bpf-loop.sh: the BPF engine's string loops, through bpf_loop() callbacks
# and through the bounded loops kept for kernels without bpf_loop()
# (forced here with DTRACE_LINUX_NOFEATURE=bpf_loop), print the same
# bytes; and with bpf_loop() a probe may make many more string calls at
# a large strsize than the verifier accepts of bounded loops.
set -u

[ "$(id -u)" -eq 0 ] || { echo "needs root to load BPF programs"; exit 77; }
grep -qw bpf_loop /proc/kallsyms ||
	{ echo "the kernel has no bpf_loop() helper"; exit 77; }

dir=$(dirname "$0")/../d/run
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rc=0

for d in "$dir"/string-*.d "$dir"/strjoin-strlen.d; do
	opts=$(sed -n 's/^ \* @options: //p' "$d")
	for nf in "" bpf_loop; do
		# shellcheck disable=SC2086
		DTRACE_LINUX_NOFEATURE=$nf "$DTRACE" -x engine=bpf $opts \
		    -s "$d" >"$tmp/out" 2>"$tmp/err"
		# stderr is empty unless the test expects faults (NAME.err)
		want_err=/dev/null
		[ -f "${d%.d}.err" ] && want_err=${d%.d}.err
		if ! cmp -s "$tmp/out" "${d%.d}.out" ||
		    ! cmp -s "$tmp/err" "$want_err"; then
			echo "FAIL: $(basename "$d") (nofeature '$nf'):"
			diff "${d%.d}.out" "$tmp/out" | head -20
			diff "$want_err" "$tmp/err" | head -20
			rc=1
		fi
	done
done

# Twelve strstr() and four lltostr()/strtoll() round trips in one probe
# at strsize=256: over a million instructions for the verifier (or 8192
# pending branches) as bounded loops.
{
	echo 'BEGIN {'
	for i in $(seq 1 12); do
		echo "	x$i = strstr(\"abcdefghij$i\", \"j$i\");"
	done
	for i in 1 2 3 4; do
		echo "	y$i = strtoll(lltostr($i * 74565, 16), 16);"
	done
	echo '	printf("%s %s %s %d %d\n", x1, x9, x12, y1, y4);'
	echo '	exit(0);'
	echo '}'
} >"$tmp/many.d"
printf "j1 j9 j12 74565 298260\n\n" >"$tmp/many.out"
"$DTRACE" -x engine=bpf -x strsize=256 -q -s "$tmp/many.d" >"$tmp/out" 2>&1
if ! cmp -s "$tmp/out" "$tmp/many.out"; then
	echo "FAIL: many string calls at strsize=256:"
	cat "$tmp/out"
	rc=1
fi
exit $rc

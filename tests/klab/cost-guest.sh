#!/bin/bash
# SPDX-License-Identifier: MIT
# cost-guest.sh DTRACE LOOP: the cost of the keyed count
# (syscall::getppid:entry { @[pid] = count(); }) on the running kernel,
# as run-cost.sh compares kernels: the time a system call takes traced
# less untraced (LOOP is tests/bench/getppid_loop built, N calls, each
# measured the median of RUNS), and the BPF program's own run time per
# event from the kernel's statistics (kernel.bpf_stats_enabled).  Prints
# one line: "RELEASE overhead NS bpf NS count OK|MISMATCH".  With
# KEYLESS=1 the clause is the keyless @ = count() instead, the baseline
# of a kernel's own cost of a firing (its count is not checked).
set -u
dtrace=$1 loop=$2
N=${N:-100000} RUNS=${RUNS:-5}
here=$(cd "$(dirname "$0")/../bench" && pwd)
. "$here/progstat.sh"
tmp=$(mktemp -d)
trap 'kill "$dpid" 2>/dev/null; rm -rf "$tmp"' EXIT
median() { printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"; }

# The untraced system call, then the traced one, alternately.
key='[pid]' fmt='%d %@d\n'
[ "${KEYLESS:-0}" = 1 ] && key= fmt='%@d\n'
start() {
	"$dtrace" -q -n 'BEGIN { printf("ready\n"); }
	    syscall::getppid:entry { @'"$key"' = count(); }
	    END { printa("'"$fmt"'", @); }' >"$tmp/d.out" 2>&1 &
	dpid=$!
	for _ in $(seq 600); do
		grep -q ready "$tmp/d.out" 2>/dev/null && return 0
		sleep 0.1
	done
	echo "dtrace did not start: $(cat "$tmp/d.out")" >&2
	exit 1
}
base=() traced=() bpf=() ok=OK
for ((r = 0; r < RUNS; r++)); do
	read -r w _ < <("$loop" "$N")
	base+=("$w")
	start
	echo 1 >"$bpf_stats"
	read -r w _ < <("$loop" "$N")
	read -r pt pc < <(prog_stat "$dpid")
	echo 0 >"$bpf_stats"
	traced+=("$w")
	[ -n "${pc:-}" ] && [ "$pc" -gt 0 ] && bpf+=($((pt / pc)))
	kill -INT "$dpid"
	wait "$dpid"
	lpid=$(awk -v n="$N" -v k="${KEYLESS:-0}" \
	    'k ? NF == 1 && $1 >= n : $2 == n { print $1 }' "$tmp/d.out")
	[ -n "$lpid" ] || ok="MISMATCH ($(tail -n 3 "$tmp/d.out" | paste -sd' '))"
done
b=$(median "${base[@]}") t=$(median "${traced[@]}")
echo "$(uname -r) overhead $(((t - b) / N)) bpf $(median "${bpf[@]:-0}") count $ok"

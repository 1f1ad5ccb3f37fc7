#!/bin/bash
# SPDX-License-Identifier: MIT
# run-cost.sh [-d DTRACE] [-r ROUNDS] KERNEL_DIR...: the keyed count's
# cost on each kernel, in one run: each kernel is booted in the kernel
# lab in turn, ROUNDS times (default 2), alternating, and runs
# cost-guest.sh; the table gives each kernel's median per-event overhead
# (ns a traced getppid() costs more than an untraced one) and BPF run time
# per event, and their ratios to the first kernel's.  Under QEMU's
# emulation (no KVM) the nanoseconds are the emulator's, many times the
# hardware's; the ratios between kernels, in the same emulator and run,
# are the figure.  Environment: N (calls, default 100000), RUNS (per
# boot, default 5).
set -u

root=$(cd "$(dirname "$0")/../.." && pwd)
dtrace= rounds=2
while getopts d:r: opt; do
	case $opt in
	d) dtrace=$OPTARG ;;
	r) rounds=$OPTARG ;;
	*) echo "usage: $0 [-d DTRACE] [-r ROUNDS] KERNEL_DIR..." >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "usage: $0 [-d DTRACE] [-r ROUNDS] KERNEL_DIR..." >&2; exit 2; }
for k in "$@"; do
	[ -d "$k" ] || { echo "$0: $k: no such directory" >&2; exit 2; }
done
[ -n "$dtrace" ] || dtrace=$root/build/cmd/dtrace
[ -x "$dtrace" ] || { echo "$0: no dtrace at $dtrace (-d DTRACE)" >&2; exit 2; }
dtrace=$(cd "$(dirname "$dtrace")" && pwd)/$(basename "$dtrace")
klab=${KLAB_RUN:-$(command -v klab-run || echo "$root/../shared/kernel-lab/klab-run")}
[ -x "$klab" ] || { echo "$0: klab-run not found (set KLAB_RUN)" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O2 -o "$tmp/getppid_loop" "$root/tests/bench/getppid_loop.c" || exit 1
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else if (NR) print int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
for ((r = 1; r <= rounds; r++)); do
	for k in "$@"; do
		name=$(basename "$(cd "$k" && pwd)")
		line=$("$klab" -w "$tmp" "$(cd "$k" && pwd)" env N="${N:-100000}" \
		    RUNS="${RUNS:-5}" "$root/tests/klab/cost-guest.sh" "$dtrace" \
		    "$tmp/getppid_loop" 2>&1 | grep ' overhead ' | tail -n 1)
		echo "round $r, $name: ${line:-no result}"
		echo "$line" >>"$tmp/$name.res"
	done
done
echo
echo "| kernel | overhead ns/event | BPF ns/event | ratio to first (overhead, BPF) | counts |"
echo "| --- | ---: | ---: | --- | --- |"
first_o= first_b=
for k in "$@"; do
	name=$(basename "$(cd "$k" && pwd)")
	o=$(awk '{ print $3 }' "$tmp/$name.res" | median)
	b=$(awk '{ print $5 }' "$tmp/$name.res" | median)
	rel=$(awk 'NF { print $1; exit }' "$tmp/$name.res")
	counts=$(awk '{ print $7 }' "$tmp/$name.res" | sort -u | paste -sd,)
	[ -n "$first_o" ] || { first_o=$o first_b=$b; }
	printf '| %s | %s | %s | %s, %s | %s |\n' "${rel:-$name}" "${o:-?}" \
	    "${b:-?}" "$(awk -v a="${o:-0}" -v f="$first_o" 'BEGIN { printf "%.2f", f ? a / f : 0 }')" \
	    "$(awk -v a="${b:-0}" -v f="$first_b" 'BEGIN { printf "%.2f", f ? a / f : 0 }')" \
	    "${counts:-?}"
done

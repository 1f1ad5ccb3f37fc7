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
# boot, default 5), KEYLESS=1 (the keyless count instead, the kernels'
# baseline), DTRACE_LINUX_NOFEATURE (passed to the guests' dtrace).
set -u

rounds=2
LAB_USAGE="[-d DTRACE] [-r ROUNDS]" LAB_OPTS=r:
. "$(dirname "$0")/lab-args.sh"
lab_args "$@"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O2 -o "$tmp/getppid_loop" "$root/tests/bench/getppid_loop.c" || exit 1
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else if (NR) print int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
for ((r = 1; r <= rounds; r++)); do
	for k in "${kernels[@]}"; do
		name=$(basename "$k")
		line=$("$klab" -w "$tmp" "$k" env N="${N:-100000}" \
		    RUNS="${RUNS:-5}" KEYLESS="${KEYLESS:-0}" \
		    DTRACE_LINUX_NOFEATURE="${DTRACE_LINUX_NOFEATURE:-}" \
		    "$root/tests/klab/cost-guest.sh" "$dtrace" \
		    "$tmp/getppid_loop" 2>&1 | grep ' overhead ' | tail -n 1)
		echo "round $r, $name: ${line:-no result}"
		echo "$line" >>"$tmp/$name.res"
	done
done
echo
echo "| kernel | overhead ns/event | BPF ns/event | ratio to first (overhead, BPF) | counts |"
echo "| --- | ---: | ---: | --- | --- |"
first_o= first_b=
for k in "${kernels[@]}"; do
	name=$(basename "$k")
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

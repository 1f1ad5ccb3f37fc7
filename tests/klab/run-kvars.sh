#!/bin/bash
# SPDX-License-Identifier: MIT
# run-kvars.sh [-d DTRACE] KERNEL_DIR...: kernel variables (`max_pfn,
# `jiffies, `linux_banner, `init_task, vmlinux`nr_cpu_ids,
# `cad_pid->level) read and checked (kvars-guest.sh) as root inside the
# kernel lab's guest booted on each KERNEL_DIR in turn, with the dtrace
# built here (build/cmd/dtrace, else build-check/cmd/dtrace).  Their
# types come from the kernel's DWARF, which the guest finds where the
# host has it: extract Debian's linux-image-<release>-dbg's
# ./usr/lib/debug/boot/vmlinux-<release> into / (../shared/kernel-lab/
# README.md says how).  A kernel without it says so and is skipped.
#
# Prints each check and "kvars lab on <release>: N passed, M failed";
# exits 0 when every kernel passed.
set -u

root=$(cd "$(dirname "$0")/../.." && pwd)
dtrace=
if [ "${1:-}" = -d ]; then
	dtrace=$2
	shift 2
fi
if [ $# -lt 1 ]; then
	echo "usage: $0 [-d DTRACE] KERNEL_DIR..." >&2
	exit 2
fi
for k in "$@"; do
	[ -d "$k" ] || { echo "$0: $k: no such directory" >&2; exit 2; }
done
if [ -z "$dtrace" ]; then
	for d in "$root/build/cmd/dtrace" "$root/build-check/cmd/dtrace"; do
		[ -x "$d" ] && { dtrace=$d; break; }
	done
fi
[ -n "$dtrace" ] && [ -x "$dtrace" ] || {
	echo "$0: no dtrace built (./quickstart, or -d DTRACE)" >&2
	exit 2
}
dtrace=$(cd "$(dirname "$dtrace")" && pwd)/$(basename "$dtrace")
klab=${KLAB_RUN:-$(command -v klab-run || echo "$root/../shared/kernel-lab/klab-run")}
[ -x "$klab" ] || { echo "$0: klab-run not found (set KLAB_RUN)" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
worst=0
for k in "$@"; do
	kdir=$(cd "$k" && pwd)
	config=$(ls "$kdir"/boot/config-* 2>/dev/null | head -n 1)
	"$klab" -w "$tmp" "$kdir" "$root/tests/klab/kvars-guest.sh" "$dtrace" \
	    "$config"
	status=$?
	[ "$status" -gt "$worst" ] && worst=$status
done
exit "$worst"

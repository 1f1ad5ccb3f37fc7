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

. "$(dirname "$0")/lab-args.sh"
lab_args "$@"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
worst=0
for kdir in "${kernels[@]}"; do
	config=$(ls "$kdir"/boot/config-* 2>/dev/null | head -n 1)
	"$klab" -w "$tmp" "$kdir" "$root/tests/klab/kvars-guest.sh" "$dtrace" \
	    "$config"
	status=$?
	[ "$status" -gt "$worst" ] && worst=$status
done
exit "$worst"

#!/bin/bash
# SPDX-License-Identifier: MIT
# run-fbt.sh [-d DTRACE] KERNEL_DIR...: run the fbt provider's tests
# (fbt-guest.sh) as root inside the kernel lab's QEMU guest booted on
# each KERNEL_DIR in turn (a kernel unpacked by
# ../shared/kernel-lab/klab-get-kernel, e.g. Debian's 6.1 and 6.12, which
# have fentry and kprobes), with the dtrace built on this machine: by
# default build/cmd/dtrace, else build-check/cmd/dtrace.  The guest sees
# this machine's files read-only; the workload is compiled here, into a
# scratch directory the guest may write.  klab-run is found as $KLAB_RUN,
# on PATH, or at ../shared/kernel-lab/klab-run next to the source tree.
#
# Prints every check and "fbt lab on <kernel>: N passed, M failed" per
# kernel; exits 0 when all passed on every kernel.  Under QEMU's
# emulation (no KVM) each kernel takes 20-40 s.
set -u

. "$(dirname "$0")/lab-args.sh"
lab_args "$@"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O2 -o "$tmp/fbt-helper" "$root/tests/klab/fbt-helper.c" || exit 1
worst=0
for kdir in "${kernels[@]}"; do
	start=$(date +%s)
	"$klab" -w "$tmp" "$kdir" "$root/tests/klab/fbt-guest.sh" "$dtrace" \
	    "$tmp/fbt-helper"
	status=$?
	echo "run-fbt: $(basename "$kdir"): exit $status after" \
	    "$(($(date +%s) - start)) s"
	[ "$status" -gt "$worst" ] && worst=$status
done
exit "$worst"

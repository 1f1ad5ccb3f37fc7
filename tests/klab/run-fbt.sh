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
cc -O2 -o "$tmp/fbt-helper" "$root/tests/klab/fbt-helper.c" || exit 1
worst=0
for k in "$@"; do
	kdir=$(cd "$k" && pwd)
	start=$(date +%s)
	"$klab" -w "$tmp" "$kdir" "$root/tests/klab/fbt-guest.sh" "$dtrace" \
	    "$tmp/fbt-helper"
	status=$?
	echo "run-fbt: $(basename "$kdir"): exit $status after" \
	    "$(($(date +%s) - start)) s"
	[ "$status" -gt "$worst" ] && worst=$status
done
exit "$worst"

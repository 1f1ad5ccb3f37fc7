#!/bin/bash
# SPDX-License-Identifier: MIT
# ustackdepth-deep.sh: ustackdepth counts every frame of a user stack,
# also one deeper than the kernel's default stack limit (127): at a
# system call 200 calls deep, it equals the frames ustack() records, on
# the BPF engine (CFI walk with bpf_loop).
set -u

[ "$(id -u)" -eq 0 ] || { echo "needs root to load BPF programs"; exit 77; }
command -v cc >/dev/null || { echo "needs a C compiler (cc)"; exit 77; }
. "$top_srcdir/tests/shell/lib.sh"
need_features task_pt_regs map_in_map bpf_loop

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O1 -fno-optimize-sibling-calls -fasynchronous-unwind-tables \
    -o "$tmp/deep" "$top_srcdir/tests/shell/data/ustack-deep.c" || exit 1

out=$("$DTRACE" -x engine=bpf -q -c "$tmp/deep 200" -n '
    syscall::getppid:entry /pid == $target/ {
	printf("depth %d\n", ustackdepth); ustack(400); exit(0); }' 2>&1)
depth=$(printf '%s\n' "$out" | sed -n 's/^depth //p')
nframes=$(printf '%s\n' "$out" | grep -c '`')
check "ustackdepth = frames of ustack(), beyond 127" "$nframes yes" \
    "$depth $([ "${depth:-0}" -gt 200 ] && echo yes)"
exit $fail

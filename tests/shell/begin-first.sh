#!/bin/bash
# SPDX-License-Identifier: MIT
# begin-first.sh: no probe acts before BEGIN (DTrace's promise), even
# while the rest of the enabling is still being attached: a busy
# process's system calls, traced by a clause that counts firings before
# BEGIN has run, count none.
set -u

[ "$(id -u)" -eq 0 ] || { echo "needs root to load BPF programs"; exit 77; }
command -v cc >/dev/null || { echo "needs a C compiler (cc)"; exit 77; }

tmp=$(mktemp -d)
bpid=
trap '[ -n "$bpid" ] && kill "$bpid" 2>/dev/null; rm -rf "$tmp"' EXIT

cat >"$tmp/busy.c" <<'C'
#include <unistd.h>

int
main(void)
{
	for (;;)
		(void) getppid();
}
C
cc -O1 -o "$tmp/busy" "$tmp/busy.c" || exit 1
"$tmp/busy" &
bpid=$!

# Many probes, so that attaching takes a while after the first.
cat >"$tmp/s.d" <<'D'
int began, early;

syscall::getppid:entry /pid == $1 && !began/ { early++; }
syscall::read:entry, syscall::write:entry, syscall::openat:entry,
syscall::close:entry, syscall::mmap:entry, syscall::munmap:entry,
syscall::ioctl:entry, syscall::futex:entry /!began/ { early++; }
BEGIN { began = 1; }
tick-100ms { exit(0); }
END { printf("early %d\n", early); }
D
for i in 1 2 3; do
	"$DTRACE" -q -s "$tmp/s.d" "$bpid" >"$tmp/out" 2>"$tmp/err" ||
	    { cat "$tmp/err"; echo "FAIL: dtrace exited with $?"; exit 1; }
	[ "$(grep . "$tmp/out")" = "early 0" ] || {
		cat "$tmp/out"
		echo "FAIL: probes fired before BEGIN"
		exit 1
	}
done
echo "no firing before BEGIN in 3 runs"

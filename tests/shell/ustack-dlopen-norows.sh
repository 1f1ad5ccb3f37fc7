#!/bin/bash
# SPDX-License-Identifier: MIT
# ustack-dlopen-norows.sh: where the kernel lacks what walking a user
# stack by its unwind rows takes (Linux 5.10: no bpf_loop(), no
# task_pt_regs(); made so here with DTRACE_LINUX_NOFEATURE), a profile
# probe's user stacks follow frame pointers, and the -c process's maps
# must still be taken again when it loads a library: its frames in the
# library are named, though the process has exited before the
# aggregation prints.
set -u
[ "$(id -u)" -eq 0 ] || { echo "needs root (profile probes)"; exit 77; }
command -v cc >/dev/null || { echo "needs a C compiler (cc)"; exit 77; }

tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/lib.c" <<'C'
long
lib_spin(long n)
{
	volatile long x = 0;

	for (long i = 0; i < n; i++)
		x += i;
	return x;
}
C
cat >"$tmp/main.c" <<'C'
#include <dlfcn.h>
#include <stdio.h>
#include <time.h>

int
main(int argc, char **argv)
{
	long (*fn)(long);
	void *h;
	time_t end;

	if (argc != 2 || (h = dlopen(argv[1], RTLD_NOW)) == NULL ||
	    (fn = (long (*)(long)) dlsym(h, "lib_spin")) == NULL) {
		fprintf(stderr, "usage: main LIB (%s)\n", dlerror());
		return 2;
	}
	for (end = time(NULL) + 2; time(NULL) < end;)
		(void) fn(1000000);
	return 0;
}
C
cc -O1 -fno-omit-frame-pointer -shared -fPIC -o "$tmp/libspin.so" \
    "$tmp/lib.c" && cc -O1 -o "$tmp/main" "$tmp/main.c" -ldl || exit 1

DTRACE_LINUX_NOFEATURE=bpf_loop,task_pt_regs "$DTRACE" -q -x engine=bpf \
    -n 'profile-997 /pid == $target/ { @[ustack(1)] = count(); }' \
    -c "$tmp/main $tmp/libspin.so" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -ne 0 ]; then
	printf 'FAIL: dtrace exited %d\n%s\n' "$rc" "$(cat "$tmp/err")"
	exit 1
fi
if grep -q '^ *libspin\.so`lib_spin+0x' "$tmp/out"; then
	echo "ok: the dlopen()ed library's frames are named after exit"
	exit 0
fi
printf 'FAIL: no libspin.so`lib_spin frame in\n%s\n%s\n' "$(head -20 "$tmp/out")" \
    "$(cat "$tmp/err")"
exit 1

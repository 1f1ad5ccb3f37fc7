#!/bin/bash
# SPDX-License-Identifier: MIT
# cwd.sh: the cwd built-in variable on every engine is the working
# directory of the process the probe fires in, as `pwd -P` prints it:
# dtrace's own for BEGIN, deep below a temporary directory, on a tmpfs
# mount of its own (/dev/shm: the BPF engine's walk crosses the mount),
# at the root, and cut to strsize - 1 bytes; and with the BPF engine, a
# traced command's directory, not dtrace's.
set -u

tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "${shm:-}"' EXIT
rc=0
engines=interp
if [ "$(id -u)" -eq 0 ]; then
	engines="interp bpf"
else
	echo "not root: the bpf engine is not tested"
fi

check() {	# check WHAT WANT GOT
	if [ "$2" != "$3" ]; then
		echo "FAIL: $1: want [$2], got [$3]"
		rc=1
	fi
}

deep="$tmp/a/b.c/d e/$(printf 'x%.0s' $(seq 1 40))/f"
mkdir -p "$deep"
dirs=("$deep" /)
if shm=$(mktemp -d /dev/shm/dtcwd.XXXXXX 2>/dev/null); then
	mkdir -p "$shm/in/shm"
	dirs+=("$shm/in/shm")
fi
for e in $engines; do
	for d in "${dirs[@]}"; do
		want=$(cd "$d" && pwd -P)
		got=$(cd "$d" && "$DTRACE" -q -x engine="$e" \
		    -n 'BEGIN { printf("%s\n", cwd); exit(0); }' 2>&1)
		check "$e in $d" "$want" "$got"
	done
	want=$(cd "$deep" && pwd -P | cut -c 1-19)
	got=$(cd "$deep" && "$DTRACE" -q -x engine="$e" -x strsize=20 \
	    -n 'BEGIN { printf("%s\n", cwd); exit(0); }' 2>&1)
	check "$e, strsize=20" "$want" "$got"
done

# A probe in another process: its directory, not dtrace's.
if [ "$(id -u)" -eq 0 ]; then
	want=$(cd "$deep" && pwd -P)
	printf 'cd "%s" && exec cat /dev/null\n' "$deep" >"$tmp/run.sh"
	got=$(cd / && "$DTRACE" -q -x engine=bpf -c "sh $tmp/run.sh" \
	    -n 'syscall::openat:entry /pid == $target && execname == "cat"/ {
	    printf("%s\n", cwd); exit(0); }' 2>&1)
	check "bpf, syscall::openat:entry of a traced command" "$want" "$got"
fi
exit $rc

#!/bin/bash
# SPDX-License-Identifier: MIT
# execargs.sh: execargs is the probed process's command line, its
# arguments separated by spaces and cut to strsize - 1 bytes, on the BPF
# engine (read from the task's mm in the kernel) and the ptrace engine
# (from /proc); and dtrace's own on the interpreter engine, whose probes
# fire in dtrace.  BEGIN on the BPF engine runs in dtrace too.
set -u

command -v cc >/dev/null || { echo "needs a C compiler (cc)"; exit 77; }

. "$top_srcdir/tests/shell/lib.sh"	# check(), pid_engines()
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

cat >"$tmp/eargs.c" <<'C'
__attribute__((noinline)) int
eargs_marker(int x)
{
	return x + 1;
}

int
main(int argc, char **argv)
{
	(void) argv;
	return eargs_marker(argc) == 0;
}
C
cc -O1 -o "$tmp/eargs" "$tmp/eargs.c" || exit 1

P='pid$target::eargs_marker:entry { printf("[%s]\n", execargs); }'
cmd="$tmp/eargs one two three"
want="[$tmp/eargs one two three]"
pid_engines
for e in $engines; do
	got=$("$DTRACE" -q -x engine=$e -c "$cmd" -n "$P" 2>&1)
	check "$e: the target's arguments" "$want" "$got"
	got=$("$DTRACE" -q -x engine=$e -x strsize=12 -c "$cmd" -n "$P" 2>&1)
	check "$e: cut to strsize - 1" "[${want:1:11}]" "$got"
done

# The interpreter fires BEGIN in dtrace: its own command line.
B='BEGIN { printf("[%s]\n", execargs); exit(0); }'
for e in interp $([ "$(id -u)" -eq 0 ] && echo bpf); do
	got=$("$DTRACE" -q -x engine=$e -n "$B" 2>&1)
	case $got in
	"["*"dtrace -q -x engine=$e -n $B]") echo "ok: $e: dtrace's own" ;;
	*) printf 'FAIL: %s: dtrace'"'"'s own: %s\n' "$e" "$got"; fail=1 ;;
	esac
done
[ $fail = 0 ] || exit 1
echo "execargs as expected"

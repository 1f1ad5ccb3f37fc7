#!/bin/bash
# SPDX-License-Identifier: MIT
# execname-comm.sh: where the kernel lets a program load task_struct.comm
# itself, the BPF engine reads execname so (two 8-byte loads, not
# bpf_get_current_comm()), and clears every byte after the first NUL as
# the helper's padding does.  A kernel that renames a task in place
# without padding leaves the old name's tail after the NUL, which would
# make the same name two keys.  A target renames itself (prctl) to names
# of 1, 3, 7, 8 and 15 characters -- the NUL in the first word, first in
# the second, and last -- each once after a 15-character name and once
# after a 1-character one, and calls getppid() under each: every name
# must be one key counted twice, as an aggregation key (written straight
# into the key) and as a value (the string buffer), and the output must
# be the helper's (DTRACE_LINUX_NOFEATURE=task_comm).
set -u

[ "$(id -u)" -eq 0 ] || { echo "needs root to load BPF programs"; exit 77; }
command -v cc >/dev/null || { echo "needs a C compiler (cc)"; exit 77; }

. "$top_srcdir/tests/shell/lib.sh"	# check()
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

cat >"$tmp/rename.c" <<'C'
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int
main(void)
{
	static const char *const names[] = {
		"a", "dtk", "dtk_abc", "dtk_abcd", "dtk_abcdefghijk",
	};

	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		(void) prctl(PR_SET_NAME, "ZZZZZZZZZZZZZZZ");
		(void) prctl(PR_SET_NAME, names[i]);
		(void) syscall(SYS_getppid);
		(void) prctl(PR_SET_NAME, "z");
		(void) prctl(PR_SET_NAME, names[i]);
		(void) syscall(SYS_getppid);
	}
	return 0;
}
C
cc -O1 -o "$tmp/rename" "$tmp/rename.c" || exit 1

P='syscall::getppid:entry /pid == $target/ {
	@k[execname] = count();
	@v[strjoin("[", strjoin(execname, "]"))] = count();
}
END { printa("%s %@d\n", @k); printa("%s %@d\n", @v); }'
want='a 2
dtk 2
dtk_abc 2
dtk_abcd 2
dtk_abcdefghijk 2
[a] 2
[dtk] 2
[dtk_abc] 2
[dtk_abcd] 2
[dtk_abcdefghijk] 2'
got=$("$DTRACE" -q -x engine=bpf -x aggsortkey -c "$tmp/rename" -n "$P" 2>&1)
check "comm loaded straight from the task" "$want" "$got"
got=$(DTRACE_LINUX_NOFEATURE=task_comm "$DTRACE" -q -x engine=bpf \
    -x aggsortkey -c "$tmp/rename" -n "$P" 2>&1)
check "comm from bpf_get_current_comm()" "$want" "$got"
exit $fail

#!/bin/bash
# SPDX-License-Identifier: MIT
# kevent.sh: the sdt and rawtp providers (kernel event probes) -- listing,
# typed arguments, strings, exact firing counts, and a bad probe name.
#
# A program of our own renames itself N times (prctl(PR_SET_NAME)), so
# task:task_rename fires exactly N times in it: sdt reads the event's
# record (pid, oldcomm and newcomm char arrays, a signed short), rawtp the
# tracepoint's arguments (struct task_struct *, const char *).  Its exec
# is seen by sdt:sched::sched_process_exec through a __data_loc string.
set -u

[ "$(id -u)" -eq 0 ] || { echo "needs root to load BPF programs"; exit 77; }
command -v cc >/dev/null || { echo "needs a C compiler (cc)"; exit 77; }
[ -r /sys/kernel/btf/vmlinux ] || { echo "needs kernel BTF"; exit 77; }

tmp=$(mktemp -d)
dpid=
trap '[ -n "$dpid" ] && kill "$dpid" 2>/dev/null; rm -rf "$tmp"' EXIT
fail() {
	echo "$1"
	[ -f "$tmp/err" ] && cat "$tmp/err"
	exit 1
}

# 1. Listing: thousands of probes, each tracepoint under both providers.
"$DTRACE" -l >"$tmp/list" 2>"$tmp/err" || fail "dtrace -l failed"
nsdt=$(awk '$2 == "sdt"' "$tmp/list" | wc -l)
nraw=$(awk '$2 == "rawtp"' "$tmp/list" | wc -l)
[ "$nsdt" -ge 100 ] || fail "only $nsdt sdt probes"
[ "$nraw" -eq "$nsdt" ] || fail "$nraw rawtp probes for $nsdt sdt probes"
grep -q ' sdt  *sched  *sched_switch$' "$tmp/list" ||
    fail "no sdt:sched::sched_switch"
awk '$2 == "sdt" && $3 == "syscalls"' "$tmp/list" | grep -q . &&
    fail "sdt lists the syscalls group"

# 2. Typed arguments (-lv), less the probe ID, which depends on the kernel.
"$DTRACE" -lv -n sdt:task::task_rename -n rawtp:task::task_rename \
    2>"$tmp/err" | sed -n 's/^ *[0-9][0-9]* *//p; /args\[/p' >"$tmp/lv"
cat >"$tmp/lv.want" <<'EOF'
sdt              task                                   task_rename
		args[0]: pid_t
		args[1]: char *
		args[2]: char *
		args[3]: short
rawtp              task                                   task_rename
		args[0]: struct task_struct *
		args[1]: const char *
EOF
diff -u "$tmp/lv.want" "$tmp/lv" >"$tmp/diff" || {
	cat "$tmp/diff"
	fail "dtrace -lv: unexpected argument types"
}

# 3. A bad probe name: DTrace's error, exit 1.
"$DTRACE" -n 'sdt:sched::no_such_event { exit(0); }' >"$tmp/out" 2>&1
status=$?
want="dtrace: invalid probe specifier sdt:sched::no_such_event { exit(0); }: probe description sdt:sched::no_such_event does not match any probes"
[ "$status" -eq 1 ] && [ "$(cat "$tmp/out")" = "$want" ] || {
	cat "$tmp/out"
	fail "bad probe name: exit $status"
}

# 4. Firing: N renames, counted exactly by both providers.
cat >"$tmp/ren.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>

int
main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 0;
	char name[16];
	FILE *fp;

	/* A short in the record: oom_score_adj (raising it is allowed). */
	if ((fp = fopen("/proc/self/oom_score_adj", "w")) != NULL) {
		fprintf(fp, "500\n");
		fclose(fp);
	}
	for (long i = 1; i <= n; i++) {
		snprintf(name, sizeof (name), "kv%ld", i);
		(void) prctl(PR_SET_NAME, name);
	}
	return 0;
}
C
# A path of its own, so another run of this test at the same time (another
# build tree's suite) is not counted too.
prog=$tmp/kv$$
cc -O2 -o "$prog" "$tmp/ren.c" || exit 1
n=25

# strsize 128: @sdtn's key of two strings and two numbers is then one
# that Linux 5.10's hash maps take (at most 512 bytes).
"$DTRACE" -q -x strsize=128 -n '
BEGIN { printf("ready\n"); }
sdt:sched::sched_process_exec /stringof(args[0]) == "'"$prog"'"/
{
	printf("exec %s %d\n", stringof(args[0]), args[1] == pid);
	tgt = pid;
}
sdt:task::task_rename /tgt != 0 && pid == tgt/
{
	@sdt = count();
	@sdtn[stringof(args[1]), stringof(args[2]), args[0] == pid,
	    args[3]] = count();
}
rawtp:task::task_rename /tgt != 0 && pid == tgt/
{
	@raw = count();
	@rawn[stringof(args[0]->comm), stringof(args[1]),
	    args[0]->pid == pid] = count();
}
sdt:sched::sched_process_exit /tgt != 0 && pid == tgt/ { exit(0); }
END
{
	printa("sdt %@d\n", @sdt);
	printa("rawtp %@d\n", @raw);
	printa("sdt %s %s %d %d %@d\n", @sdtn);
	printa("rawtp %s %s %d %@d\n", @rawn);
}' >"$tmp/out" 2>"$tmp/err" &
dpid=$!
for _ in $(seq 300); do
	grep -q ready "$tmp/out" && break
	sleep 0.1
done
grep -q ready "$tmp/out" || fail "dtrace did not start"
"$prog" "$n"
for _ in $(seq 300); do
	kill -0 "$dpid" 2>/dev/null || break
	sleep 0.1
done
wait "$dpid"
status=$?
dpid=

# Each rename once, by both providers: the names before and after (char
# arrays in the record, a task's comm and a kernel string), the pid, and
# the signed short.  Aggregations print in value then key order; compare
# as sets.
{
	printf 'ready\nexec %s 1\nsdt %d\nrawtp %d\n' "$prog" "$n" "$n"
	old=$(basename "$prog")
	for i in $(seq 1 "$n"); do
		printf 'sdt %s kv%d 1 500 1\n' "$old" "$i"
		printf 'rawtp %s kv%d 1 1\n' "$old" "$i"
		old=kv$i
	done
} | sort >"$tmp/want"
sed '/^$/d' "$tmp/out" | sort >"$tmp/got"
if [ "$status" -ne 0 ] || ! diff -u "$tmp/want" "$tmp/got" >"$tmp/diff"; then
	echo "exit status $status"
	cat "$tmp/diff"
	fail "kernel event firings differ"
fi
echo "sdt and rawtp: $nsdt probes each; $n renames seen exactly once by each"

#!/bin/bash
# SPDX-License-Identifier: MIT
# pid-debugged.sh: pid probes of a process that loads a library while it
# is traced, and of a process under gdb.
#
#  - -c, on every engine that fires pid probes: pid$target:LIB::entry,
#    the library named short (libdbgNNN for libdbgNNN.so), matches
#    nothing at start (-Z) and counts every call once the program has
#    dlopen()ed it -- exactly, as the process waits at the dlopen until
#    the probes are placed;
#  - -p of the same program, running on its own: the same, exactly;
#  - -p of the program running under gdb, as root: the BPF engine traces
#    it without ptrace (gdb is its tracer), counts its calls, and never
#    stops it -- gdb sees no signal and the program exits normally; the
#    library's probes fire once placed (not stopped at the dlopen, the
#    first calls may be missed); with the ptrace engine forced, which
#    would be a second tracer, -p is refused in one line naming gdb.
set -u

. "$top_srcdir/tests/shell/lib.sh"	# check(), pid_engines()
command -v cc >/dev/null || { echo "needs a C compiler (cc)"; exit 77; }

tmp=$(mktemp -d)
dpid= gpid=
trap 'kill $dpid $gpid 2>/dev/null; rm -rf "$tmp"' EXIT

lib=libdbg$$
cat >"$tmp/dbg.c" <<'C'
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#ifdef LIB
__attribute__((noinline)) int
lib_a(int x)
{
	return x + 1;
}

__attribute__((noinline)) int
lib_b(int x)
{
	return x + 2;
}
#else
__attribute__((noinline)) int
work_fn(int x)
{
	return x * 2 + 1;
}

__attribute__((noinline)) void
done_fn(void)
{
	__asm__ volatile("");
}

/* dbg GOFILE LIB N: once GOFILE exists, N calls, dlopen, 2N calls. */
int
main(int argc, char **argv)
{
	int n = atoi(argv[3]);
	int (*a)(int), (*b)(int);
	long s = 0;
	void *h;

	while (access(argv[1], F_OK) != 0)
		usleep(10000);
	for (int i = 0; i < n; i++)
		s += work_fn(i);
	if ((h = dlopen(argv[2], RTLD_NOW)) == NULL ||
	    (a = (int (*)(int)) dlsym(h, "lib_a")) == NULL ||
	    (b = (int (*)(int)) dlsym(h, "lib_b")) == NULL) {
		fprintf(stderr, "dbg: %s\n", dlerror());
		return 1;
	}
	for (int i = 0; i < n; i++) {
		s += a(i) + b(i);
		usleep(20000);
	}
	done_fn();
	return s == 0;
}
#endif
C
cc -O1 -shared -fPIC -DLIB -o "$tmp/$lib.so" "$tmp/dbg.c" &&
    cc -O1 -o "$tmp/dbg" "$tmp/dbg.c" -ldl || exit 1

n=25
script='pid$target::work_fn:entry { @[probefunc] = count(); }
    pid$target:'$lib'::entry { @[probefunc] = count(); }
    pid$target::done_fn:entry { exit(0); }
    END { printa("%s %@d\n", @); }'
want="lib_a $n
lib_b $n
work_fn $n"
# arm64's crti.o puts call_weak_fn in every shared object, and the
# library's _init calls it once as it is loaded: a function of the
# library like the others, but not one this test counts.
crt() { grep -v '^call_weak_fn '; }

pid_engines
for e in $engines; do
	touch "$tmp/go"
	got=$("$DTRACE" -x engine="$e" -q -Z -c "$tmp/dbg $tmp/go $tmp/$lib.so $n" \
	    -n "$script" 2>&1 | grep . | crt | sort)
	check "$e -c: $lib::entry after the dlopen, every call" "$want" "$got"

	# -p: dtrace traces before the program is told to go.
	rm -f "$tmp/go"
	"$tmp/dbg" "$tmp/go" "$tmp/$lib.so" $n &
	ppid=$!
	"$DTRACE" -x engine="$e" -q -Z -p $ppid -n 'BEGIN { printf("tracing\n"); }' \
	    -n "$script" >"$tmp/out" 2>&1 &
	dpid=$!
	for _ in $(seq 300); do
		grep -q tracing "$tmp/out" && break
		sleep 0.1
	done
	touch "$tmp/go"
	wait $dpid
	dpid=
	wait $ppid
	check "$e -p: $lib::entry after the dlopen, every call" "$want" \
	    "$(grep -v -e tracing -e '^$' "$tmp/out" | crt | sort)"
done

# Under gdb.
if ! command -v gdb >/dev/null; then
	echo "skipped the gdb cases: gdb is not installed"
	exit $fail
fi
if [ "$(id -u)" -ne 0 ] || [ ! -r /sys/bus/event_source/devices/uprobe/type ]
then
	echo "skipped the gdb cases: they need the BPF engine (root, uprobes)"
	exit $fail
fi
rm -f "$tmp/go"
gdb -q -batch -ex run --args "$tmp/dbg" "$tmp/go" "$tmp/$lib.so" $n \
    >"$tmp/gdb" 2>&1 &
gpid=$!
ppid=
for _ in $(seq 300); do
	ppid=$(pgrep -P $gpid -x dbg) && break
	sleep 0.1
done
[ -n "$ppid" ] || { echo "FAIL: gdb did not start the program"; exit 1; }

if [ "$(uname -m)" = x86_64 ]; then
	"$DTRACE" -x engine=ptrace -q -Z -p "$ppid" -n "$script" >"$tmp/out" 2>&1
	check "ptrace engine: one line, exit 1" "exit 1
dtrace: failed to grab pid $ppid: process is traced by pid $gpid" \
	    "$(echo "exit $?"; cat "$tmp/out")"
fi

"$DTRACE" -q -Z -p "$ppid" -n 'BEGIN { printf("tracing\n"); }' \
    -n "$script" >"$tmp/out" 2>&1 &
dpid=$!
for _ in $(seq 300); do
	grep -q tracing "$tmp/out" && break
	sleep 0.1
done
touch "$tmp/go"
wait $dpid
echo "exit $?" >>"$tmp/out"
dpid=
wait $gpid
gpid=
check "bpf -p under gdb: every call of work_fn, and dtrace ends" \
    "work_fn $n
exit 0" "$(grep -e work_fn -e exit "$tmp/out")"
# The library's probes are placed without stopping the program: some of
# its calls are seen, at most every one.
la=$(awk '$1 == "lib_a" { print $2 }' "$tmp/out")
check "bpf -p under gdb: the dlopen()ed library's probes fire" yes \
    "$( [ "${la:-0}" -ge 1 ] && [ "${la:-0}" -le $n ] && echo yes)"
check "gdb saw no signal, and the program exited normally" \
    "[Inferior 1 (process $ppid) exited normally]" \
    "$(grep -i -e signal -e '^\[Inferior' "$tmp/gdb")"

exit $fail

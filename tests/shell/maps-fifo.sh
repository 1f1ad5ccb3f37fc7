#!/bin/bash
# SPDX-License-Identifier: MIT
# maps-fifo.sh: the files a process maps are named by /proc/<pid>/maps,
# so by whoever owns the process, who can put a FIFO in a mapped
# library's place (tests/shell/data/maps-fifo.c does).  dtrace reads a
# library's symbols and unwind tables by that name when a user stack
# goes through it (dt_elfsym_open()); opening the FIFO would wait for a
# writer for ever, deaf to ^C.  Profiled in the replaced library, dtrace
# must end in bounded time, the frame printed by module alone.
set -u

[ "$(id -u)" -eq 0 ] || { echo "needs root (profile probes)"; exit 77; }
command -v cc >/dev/null || { echo "needs a C compiler (cc)"; exit 77; }

tmp=$(mktemp -d)
chmod 755 "$tmp"
dpid=
cleanup() {
	[ -n "$dpid" ] && kill -KILL -- "-$dpid" 2>/dev/null
	[ -s "$tmp/pid" ] && kill -KILL "$(cat "$tmp/pid")" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
src=$top_srcdir/tests/shell/data/maps-fifo.c
cc -O2 -shared -fPIC -DLIB -o "$tmp/libspin.so" "$src" &&
    cc -O2 -o "$tmp/maps-fifo" "$src" -ldl || exit 1

# In a session of its own, so that a hung dtrace and all it started can
# be killed.
setsid "$DTRACE" -q -x engine=bpf \
    -n 'profile-997 /pid == $target/ { @[ustack(2)] = count(); }' \
    -c "$tmp/maps-fifo $tmp 1" >"$tmp/out" 2>"$tmp/err" &
dpid=$!
for ((i = 0; i < 300; i++)); do
	[ -s "$tmp/pid" ] && break
	sleep 0.1
done
[ -s "$tmp/pid" ] || { cat "$tmp/err"; echo "FAIL: maps-fifo did not start"; exit 1; }
[ -p "$tmp/libspin.so" ] || { echo "FAIL: no FIFO in the library's place"; exit 1; }
touch "$tmp/go"
for ((i = 0; i < 600; i++)); do
	kill -0 "$dpid" 2>/dev/null || break
	sleep 0.1
done
if kill -0 "$dpid" 2>/dev/null; then
	echo "FAIL: dtrace still running 60 s on (hung opening the FIFO?)"
	exit 1
fi
wait "$dpid"
rc=$?
dpid=
if [ "$rc" -ne 0 ]; then
	printf 'FAIL: dtrace exited %d\n%s\n' "$rc" "$(cat "$tmp/err")"
	exit 1
fi
echo "ok: dtrace ended"
# The library's frames print by module, with no symbol read.
if grep -q '^ *libspin\.so`0x' "$tmp/out"; then
	echo "ok: the library's frames print as libspin.so\`0x..."
else
	printf 'FAIL: no libspin.so frame in\n%s\n' "$(head -20 "$tmp/out")"
	exit 1
fi
exit 0

#!/bin/bash
# SPDX-License-Identifier: MIT
# perfmap-unsafe.sh: /tmp/perf-<pid>.map is anyone's to make, and root's
# dtrace reads it to name a JIT's code (os/linux/dt_perfmap.c).  With
# tests/shell/data/jit-spin.c, whose profile samples fall in anonymous
# memory at a fixed address, the test plants the map before the program
# runs, and checks what dtrace does with it:
#   - a FIFO (another user's, then root's): dtrace neither hangs in
#     open() at the end of the run nor after ^C, and says once why the
#     map was not read;
#   - a regular file of another user naming the code: not read, said;
#   - a symbolic link to a file naming the code: not followed, said;
#   - root's file: read, the frame named jit-spin`jit_spin;
#   - root's file of some 40 MB, the code named on its last line: its last
#     32 MB read, with one line saying the rest was not.
set -u

[ "$(id -u)" -eq 0 ] || { echo "needs root (profile probes, chown)"; exit 77; }
command -v cc >/dev/null || { echo "needs a C compiler (cc)"; exit 77; }
id nobody >/dev/null 2>&1 || { echo "needs the user nobody"; exit 77; }

tmp=$(mktemp -d)
chmod 755 "$tmp"
map=
maps=()
dpid=
cleanup() {
	[ -n "$dpid" ] && kill -KILL -- "-$dpid" 2>/dev/null
	[ -s "$tmp/pid" ] && kill -KILL "$(cat "$tmp/pid")" 2>/dev/null
	rm -f "${maps[@]}"
	rm -rf "$tmp"
}
trap cleanup EXIT
cc -O2 -fno-stack-protector -o "$tmp/jit-spin" \
    "$top_srcdir/tests/shell/data/jit-spin.c" || exit 1
fail=0
addr=200000000000
prog='profile-997 /pid == $target/ { @[ustack(1)] = count(); }'

# gone PID SECONDS: whether PID has ended within SECONDS.
gone() {
	local i
	for ((i = 0; i < $2 * 10; i++)); do
		kill -0 "$1" 2>/dev/null || return 0
		sleep 0.1
	done
	return 1
}

# start SECONDS: dtrace in a session of its own (so that a hung one and
# all it started can be killed), jit-spin waiting for its map to be made;
# $map is the map's name once jit-spin has said its pid.
start() {
	local i
	rm -f "$tmp/pid" "$tmp/go" "$tmp/out" "$tmp/err"
	setsid "$DTRACE" -q -x engine=bpf -n "$prog" \
	    -c "$tmp/jit-spin $tmp $1" >"$tmp/out" 2>"$tmp/err" &
	dpid=$!
	for ((i = 0; i < 300; i++)); do
		[ -s "$tmp/pid" ] && break
		sleep 0.1
	done
	[ -s "$tmp/pid" ] || { cat "$tmp/err"; echo "FAIL: jit-spin did not start"; exit 1; }
	map=/tmp/perf-$(cat "$tmp/pid").map
	maps+=("$map")
	rm -f "$map"
}

# finish WHAT: dtrace must end within 60 s (jit-spin runs for 1); a hung
# one is killed and fails the check.
finish() {
	if gone "$dpid" 60; then
		wait "$dpid" 2>/dev/null
		dpid=
		return 0
	fi
	echo "FAIL: $1: dtrace still running 60 s on (hung on the map?)"
	kill -KILL -- "-$dpid" 2>/dev/null
	wait "$dpid" 2>/dev/null
	dpid=
	fail=1
	return 1
}

# said WHAT TEXT: stderr has TEXT on exactly one line.
said() {
	local n
	n=$(grep -cF -- "$2" "$tmp/err")
	if [ "$n" -eq 1 ]; then
		echo "ok: $1: said once"
	else
		printf 'FAIL: %s: want one line with "%s" on stderr, got\n%s\n' \
		    "$1" "$2" "$(cat "$tmp/err")"
		fail=1
	fi
}

# named WHAT NAME yes|no: whether a frame is named NAME in the output.
named() {
	if grep -q "\`$2+" "$tmp/out"; then
		[ "$3" = yes ] && echo "ok: $1: $2 named" && return
		printf 'FAIL: %s: %s named from an unsafe map\n' "$1" "$2"
	else
		[ "$3" = no ] && echo "ok: $1: $2 not named" && return
		printf 'FAIL: %s: no %s frame in\n%s\n%s\n' "$1" "$2" \
		    "$(head -20 "$tmp/out")" "$(cat "$tmp/err")"
	fi
	fail=1
}

# A FIFO of nobody's: a reader's open() would wait for a writer for ever.
start 1
mkfifo "$map" && chown nobody "$map"
touch "$tmp/go"
finish "FIFO of nobody's" && said "FIFO of nobody's" "$map not read: not a regular file"

# Root's FIFO, and ^C while tracing: dtrace ends, printing what it has.
start 30
mkfifo "$map"
touch "$tmp/go"
sleep 2
kill -INT "$dpid"
if gone "$dpid" 20; then
	wait "$dpid" 2>/dev/null
	dpid=
	echo "ok: root's FIFO: ^C ends dtrace"
	said "root's FIFO" "$map not read: not a regular file"
else
	echo "FAIL: root's FIFO: dtrace still running 20 s after ^C"
	kill -KILL -- "-$dpid" 2>/dev/null
	wait "$dpid" 2>/dev/null
	dpid=
	fail=1
fi
kill -KILL "$(cat "$tmp/pid")" 2>/dev/null

# Another user's regular file naming the code.
start 1
printf '%s 100 planted_by_nobody\n' "$addr" >"$map"
chown nobody "$map"
touch "$tmp/go"
finish "nobody's map" && {
	named "nobody's map" planted_by_nobody no
	said "nobody's map" "$map not read: owned by uid $(id -u nobody), not by the process's user (uid 0) or root"
}

# A link to root's file naming the code.
start 1
printf '%s 100 linked_to\n' "$addr" >"$tmp/target.map"
ln -s "$tmp/target.map" "$map"
touch "$tmp/go"
finish "link" && {
	named "link" linked_to no
	said "link" "$map not read: a symbolic link"
}

# Root's own map: read.
start 1
printf '%s 100 jit_spin\n' "$addr" >"$map"
touch "$tmp/go"
finish "root's map" && {
	named "root's map" jit_spin yes
	if [ -s "$tmp/err" ]; then
		printf 'FAIL: root'"'"'s map: stderr\n%s\n' "$(cat "$tmp/err")"
		fail=1
	fi
}

# Some 40 MB: the first 8 or so are not read, the last line is.
start 1
awk 'BEGIN { for (i = 0; i < 780000; i++)
	printf "%x 10 filler_function_with_a_long_name_%d\n", 4096 * i + 65536, i }' >"$map"
printf '%s 100 jit_spin\n' "$addr" >>"$map"
mb=$(($(stat -c %s "$map") >> 20))
touch "$tmp/go"
finish "$mb MB map" && {
	named "$mb MB map" jit_spin yes
	said "$mb MB map" "$map read in part: $mb MB, of which 32 MB are read at most"
}
exit $fail

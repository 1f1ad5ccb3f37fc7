#!/bin/bash
# SPDX-License-Identifier: MIT
# jit-java.sh: Java frames named from the JVM's perf map -- a hot method
# compiled by HotSpot, its map written on demand (jcmd <pid>
# Compiler.perfmap), the running JVM sampled by profile-997 into
# @[jstack()] on the BPF engine: the method's name appears in the stack.
set -u

for t in java javac jcmd; do
	command -v $t >/dev/null || { echo "needs $t" \
	    "(the Debian package openjdk-17-jdk-headless)"; exit 77; }
done
if [ "$(id -u)" -ne 0 ] ||
    [ ! -r /sys/bus/event_source/devices/software/type ]; then
	echo "profile probes need root (the BPF engine)"
	exit 77
fi
tmp=$(mktemp -d)
jpid=
cleanup() {
	[ -n "$jpid" ] && kill "$jpid" 2>/dev/null
	[ -n "$jpid" ] && rm -f "/tmp/perf-$jpid.map"
	rm -rf "$tmp"
}
trap cleanup EXIT

cat >"$tmp/Hot.java" <<'JAVA'
public class Hot {
	static long hotLoop(long n) {
		long s = 0;
		for (long i = 0; i < n; i++)
			s = (s + i * 7) % 1000003;
		return s;
	}
	public static void main(String[] args) {
		System.out.println(ProcessHandle.current().pid());
		System.out.flush();
		long end = System.currentTimeMillis() + 60000;
		long t = 0;
		while (System.currentTimeMillis() < end)
			t += hotLoop(100000);
		System.out.println(t);
	}
}
JAVA
javac -d "$tmp" "$tmp/Hot.java" || { echo "FAIL: javac"; exit 1; }
# Frame pointers kept by compiled code, so that the walk goes past it.
java -XX:+PreserveFramePointer -cp "$tmp" Hot >"$tmp/out" &
for _ in $(seq 100); do
	jpid=$(head -n 1 "$tmp/out" 2>/dev/null)
	[ -n "$jpid" ] && break
	sleep 0.2
done
[ -n "$jpid" ] || { echo "FAIL: the JVM did not start"; exit 1; }
# Until hotLoop is compiled, the map has no entry for it: ask again.
for _ in $(seq 20); do
	jcmd "$jpid" Compiler.perfmap >/dev/null 2>&1
	grep -q 'Hot.hotLoop' "/tmp/perf-$jpid.map" 2>/dev/null && break
	sleep 0.5
done
grep -q 'Hot.hotLoop' "/tmp/perf-$jpid.map" 2>/dev/null ||
	{ echo "FAIL: jcmd wrote no perf map naming Hot.hotLoop"; exit 1; }

out=$("$DTRACE" -q -p "$jpid" -n 'profile-997 /pid == $target/ {
    @[jstack()] = count(); } tick-1s { exit(0); }')
if grep -q 'java`long Hot.hotLoop(long)' <<<"$out"; then
	echo "ok: profile-997 jstack() names Hot.hotLoop"
else
	printf 'FAIL: no Hot.hotLoop frame in\n%s\n' "$(head -40 <<<"$out")"
	exit 1
fi

#!/bin/bash
# SPDX-License-Identifier: MIT
# jit-node.sh: JavaScript frames named from Node.js's perf map
# (node --perf-basic-prof writes /tmp/perf-<pid>.map) -- a hot function
# sampled by profile-997 into @[jstack()] on the BPF engine, and a
# function calling write(2) under a syscall probe on the ptrace engine:
# the JavaScript function's name appears in the stack.
set -u

command -v node >/dev/null ||
	{ echo "needs Node.js (the Debian package nodejs)"; exit 77; }
tmp=$(mktemp -d)
maps=()
trap 'rm -rf "$tmp" "${maps[@]}"' EXIT
fail=0

cat >"$tmp/hot.js" <<'JS'
function hotLoop(n) {
	let s = 0;
	for (let i = 0; i < n; i++)
		s = (s + i * 7) % 1000003;
	return s;
}
const end = Date.now() + 2000;
let t = 0;
while (Date.now() < end)
	t += hotLoop(100000);
if (t < 0)
	console.log(t);
JS
cat >"$tmp/wr.js" <<'JS'
const fs = require('fs');
function writeLine(i) {
	fs.writeSync(1, "line " + i + "\n");
}
for (let i = 0; i < 3000; i++)
	writeLine(i);
JS

# The perf maps node leaves behind go with the test's files.
forget_map() {
	local p

	for p in $(grep -o '^PID [0-9]*' <<<"$1" | cut -d' ' -f2); do
		maps+=("/tmp/perf-$p.map")
	done
}

if [ "$(id -u)" -eq 0 ] && [ -r /sys/bus/event_source/devices/uprobe/type ]
then
	out=$("$DTRACE" -q -x engine=bpf -n 'BEGIN { printf("PID %d\n", $target); }
	    profile-997 /pid == $target/ { @[jstack()] = count(); }' \
	    -c "node --perf-basic-prof $tmp/hot.js")
	forget_map "$out"
	# V8 names it "JS:*hotLoop /path:1:17" (node 20), "LazyCompile:*hotLoop
	# /path:1" (node 18): whatever the kind, the function's name.
	if grep -q '^ *node`[^ ]*[:*~]hotLoop ' <<<"$out"; then
		echo "ok: bpf: profile-997 jstack() names hotLoop"
	else
		printf 'FAIL: bpf: no hotLoop frame in\n%s\n' "$(head -40 <<<"$out")"
		fail=1
	fi
else
	echo "skip: the BPF engine needs root and the uprobe PMU"
fi

# The ptrace engine fires no profile probes: a system call the function
# makes stops the process with its JIT frames on the stack.
out=$("$DTRACE" -q -x engine=ptrace -n 'BEGIN { printf("PID %d\n", $target); }
    syscall::write:entry /pid == $target/ { @[jstack(8, 1024)] = count(); }' \
    -c "node --perf-basic-prof --no-turbo-inlining $tmp/wr.js" |
    grep -v '^line ')
forget_map "$out"
if grep -q '^ *node`[^ ]*[:*~]writeLine ' <<<"$out"; then
	echo "ok: ptrace: jstack(8, 1024) at write(2) names writeLine"
else
	printf 'FAIL: ptrace: no writeLine frame in\n%s\n' "$(head -40 <<<"$out")"
	fail=1
fi
exit $fail

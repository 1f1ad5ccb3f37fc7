#!/bin/bash
# SPDX-License-Identifier: MIT
# teardown-kill.sh: dtrace's tracing process SIGKILLed while it takes
# thousands of uprobes out of a -p target leaves none behind.
#
# Each round traces every entry of libc's public functions (about 2,300
# probes, one uprobe_multi link of most of them) in one long-running
# target (data/teardown-target.c), then sends SIGINT to dtrace and, a
# random 0 to 0.4 s later, while END runs and the links are taken out,
# SIGKILL to the child of it that traces (cmd/dtrace_guard.c).  The
# kernel restores a link's sites when its last reference goes, and gave
# up on the rest of them when that was a close() the kill interrupted
# ("failed to unregister, leaking uprobe"): the breakpoints stayed in the
# target for good (os/linux/bpf/dt_bpf_detach.c).  After every round, as
# soon as dtrace has ended: the target lives, its executable text is its
# files' byte for byte, and the kernel logged no "leaking uprobe".  At the
# end the target must have computed every result right and run as fast
# as at its start, give or take the machine's load.
#
# TEARDOWN_ROUNDS (default 30) sets the number of rounds.  Each attaches
# 2,300 probes: about 2 s on the idle 2-CPU development VM, so 30 rounds
# take about a minute and 50 nearly two; under other builds' load (load
# average 12) 50 took 8 minutes.  With the links closed by dtrace itself,
# as before dt_bpf_detach.c, the first round that kills as the first link
# goes fails: 2,161 breakpoints left, the target 85 times slower.
set -u
# Job control, so that background commands do not ignore SIGINT (as
# chaos.sh does).
set -m
dflint=()
env --default-signal=INT true 2>/dev/null && dflint=(env --default-signal=INT)

. "$top_srcdir/tests/shell/lib.sh"	# need_bpf_uprobes(), need_features()
need_bpf_uprobes
# Without uprobe_multi each site is a perf event of its own, and 2,300 of
# them take minutes to place and remove.
need_features uprobe_multi
ldd /bin/true 2>/dev/null | grep -q 'libc\.so\.6 ' ||
	{ echo "needs a libc.so.6 (glibc)"; exit 77; }
dmesg >/dev/null 2>&1 || { echo "may not read the kernel's log"; exit 77; }

rounds=${TEARDOWN_ROUNDS:-30}
tmp=$(mktemp -d)
trap 'touch "$tmp/stop"; pkill -KILL -f "teardown-$$-" 2>/dev/null;
    rm -rf "$tmp"' EXIT
cc -O1 -o "$tmp/target" "$top_srcdir/tests/shell/data/teardown-target.c" ||
	exit 1

# The kernel's "leaking uprobe" lines since uptime $1 (dmesg's clock).
leaks() {
	dmesg 2>/dev/null | awk -v t="$1" -F'[][]' \
	    '$2 + 0 >= t && /leaking uprobe/'
}
uptime_s() { awk '{ print $1 }' /proc/uptime; }
# The BPF links process $1 holds (the uprobe_multi links of pid probes).
links() { ls -l "/proc/$1/fd" 2>/dev/null | grep -c 'anon_inode:bpf_link'; }

"$tmp/target" run "$tmp/stop" >"$tmp/target.out" &
t=$!
sleep 1

fail=0 hit=0
for r in $(seq "$rounds"); do
	tag="teardown-$$-$r"
	start=$(uptime_s)
	"${dflint[@]}" "$DTRACE" -q -p "$t" -n "/* $tag */
	    BEGIN { printf(\"go\\n\"); }
	    pid\$target:libc.so.6:[a-z]*:entry { @ = count(); }" \
	    >"$tmp/out" 2>"$tmp/err" &
	d=$!
	for _ in $(seq 600); do
		grep -q go "$tmp/out" 2>/dev/null && break
		kill -0 "$d" 2>/dev/null || break
		sleep 0.1
	done
	c=$(pgrep -P "$d" | head -1)
	if ! grep -q go "$tmp/out" || [ -z "$c" ]; then
		echo "FAIL: round $r: tracing did not start"
		sed 's/^/  /' "$tmp/err" | grep -v skipped | head -5
		fail=1
		kill -KILL "$d" $c 2>/dev/null
		wait "$d" 2>/dev/null
		break
	fi
	n0=$(links "$c")
	kill -INT "$d"
	if [ $((r % 2)) -eq 1 ] && [ "$n0" -gt 0 ]; then
		# As the first link goes: the kernel is taking its sites out.
		when="as the first link went"
		for _ in $(seq 3000); do
			[ "$(links "$c")" -lt "$n0" ] && break
		done
	else
		# Anywhere from END to the end: the drain, between links.
		delay=$(printf '0.%03d' $((RANDOM % 800)))
		when="${delay}s after SIGINT"
		sleep "$delay"
	fi
	# Whether the kill meets a detach (its helper is there): the rounds
	# that test what they are for, counted.
	pgrep -P "$c" -x dtrace-detach >/dev/null && hit=$((hit + 1))
	kill -KILL "$c" 2>/dev/null
	# (2>: not the shell's word on how the job ended)
	ends "$d" 2>/dev/null ||
	    { echo "FAIL: round $r: dtrace did not end"; fail=1; }
	what="round $r (SIGKILL $when)"
	if [ ! -d "/proc/$t" ]; then
		echo "FAIL: $what: the target died"
		fail=1
		break
	fi
	diff=$("$tmp/target" check "$t")
	if [ "$(head -1 <<<"$diff")" != 0 ]; then
		# Another tracer's uprobes come and go; ours would stay.
		sleep 3
		diff=$("$tmp/target" check "$t")
	fi
	if [ "$(head -1 <<<"$diff")" != 0 ]; then
		echo "FAIL: $what: $(head -1 <<<"$diff") bytes of the target's" \
		    "text are not its files', as at:"
		sed 1d <<<"$diff" | sed 's/^/  /'
		fail=1
	fi
	if [ -n "$(leaks "$start")" ]; then
		echo "FAIL: $what: the kernel leaked uprobes:"
		leaks "$start" | sed 's/^\[[^]]*\] *//' | sort | uniq -c |
		    head -3
		fail=1
	fi
	[ "$fail" -eq 0 ] || break
done

# Its last second's rate, untraced.
sleep 2.5
touch "$tmp/stop"
wait "$t"
st=$?
out=$(cat "$tmp/target.out")
if [ "$st" -ne 0 ] || ! grep -q '^results ok$' <<<"$out" ||
    ! grep -q '^text ok$' <<<"$out"; then
	echo "FAIL: the target ended with status $st, printing:"
	echo "$out"
	fail=1
else
	read -r first last < <(awk '/^calls\/s/ { print $2, $3 }' <<<"$out")
	echo "ok: the target's libc calls a second: $first at the start," \
	    "$last at the end"
	# A breakpoint left in a function it calls makes it tens of times
	# slower; a loaded machine, a few times at most.
	if [ "$(awk -v f="$first" -v l="$last" \
	    'BEGIN { print (l * 8 < f) }')" = 1 ]; then
		echo "FAIL: the target ends much slower than it started"
		fail=1
	fi
fi
[ "$fail" -eq 0 ] && echo "ok: $rounds rounds, $hit of them killed" \
    "mid-detach: no uprobe left, the target intact"
exit $fail

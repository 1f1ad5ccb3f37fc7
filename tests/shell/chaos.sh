#!/bin/bash
# SPDX-License-Identifier: MIT
# chaos.sh: dtrace killed at random moments never harms what it traces.
#
# One long-running target (data/chaos-target.c) per engine is traced with
# -p over and over; each round picks a probe (return, predicated entry,
# counting entry, every instruction of a function, USDT, system call), a
# signal (SIGKILL, SIGTERM, SIGINT, or SIGINT then SIGKILL while dtrace
# ends) and a moment from start-up to well into tracing, and sends it to
# the dtrace the shell started.  After every round: the target runs,
# nothing traces it any more, and no dtrace process is left.  At the end
# the target must print what an untraced run prints (every result right,
# its text as it was), and no BPF program, map or link may be left that no
# process holds, nor any uprobe of our files (with no dtrace left, a perf
# event can only outlive it through a BPF link).  Rounds with -c check that
# the created process dies with dtrace (it is dtrace's to end).
set -u
# Job control, so that background commands do not ignore SIGINT, as at a
# terminal: a non-interactive shell starts them with SIGINT ignored.  And
# dtrace starts with SIGINT's default action even if it was ignored when
# this shell started (a shell cannot reset that).
set -m
dflint=()
env --default-signal=INT true 2>/dev/null && dflint=(env --default-signal=INT)

[ "$(id -u)" -eq 0 ] || { echo "needs root (the bpf engine)"; exit 77; }
command -v cc >/dev/null || { echo "needs a C compiler (cc)"; exit 77; }
[ -r /sys/bus/event_source/devices/uprobe/type ] ||
	{ echo "needs uprobes (the bpf engine's pid probes)"; exit 77; }
. "$top_srcdir/tests/shell/lib.sh"	# pid_engines(): bpf, and ptrace where
pid_engines				# dtrace has it for this processor

tmp=$(mktemp -d)
trap 'touch "$tmp"/stop.*; pkill -KILL -f "chaos-$$-" 2>/dev/null;
    rm -rf "$tmp"' EXIT
dtrace=$top_builddir/cmd/dtrace
sdt=
echo '#include <sys/sdt.h>' | cc -E - >/dev/null 2>&1 && sdt=-DHAVE_SDT
cc -O1 -fno-inline $sdt -o "$tmp/chaos-target" \
    "$top_srcdir/tests/shell/data/chaos-target.c" &&
    cc -o "$tmp/bpf-objects" "$top_srcdir/tests/shell/data/bpf-objects.c" ||
    exit 1
"$tmp/bpf-objects" >/dev/null ||
	{ echo "may not list BPF objects (BPF_PROG_GET_NEXT_ID)"; exit 77; }

fail=0
failed() { echo "FAIL: $*"; fail=1; }

# BPF programs, maps and links no process holds (an attached program or
# link keeps its perf event, and so its uprobe, alive), one per line;
# system-wide, since other tracers may come and go meanwhile.  An exiting
# process's objects are held by no file for a moment (its files close one
# by one): only those seen orphaned in five looks over two seconds count.
orphan_look() {
	local held
	held=$(cat /proc/[0-9]*/fdinfo/* 2>/dev/null |
	    awk '/^(prog|map|link)_id:/ { print $1, $2 }' | sort -u)
	"$tmp/bpf-objects" | awk '{ print $1, $2 }' | sort -u |
	    comm -23 - <(echo "$held")
}
orphans() {
	local o
	o=$(orphan_look)
	for _ in 1 2 3 4; do
		[ -z "$o" ] && break
		sleep 0.5
		o=$(comm -12 <(echo "$o") <(orphan_look))
	done
	echo "$o"
}

# uprobes or kprobes defined in tracefs for our files.
probe_events() {
	cat /sys/kernel/tracing/uprobe_events /sys/kernel/tracing/kprobe_events \
	    /sys/kernel/debug/tracing/uprobe_events \
	    /sys/kernel/debug/tracing/kprobe_events 2>/dev/null |
	    grep -F -- "$tmp"
}

# The probes a round picks from ($t: the target's pid).
probes=(
	'pid$target::work:return { @ = count(); }'
	'pid$target::work:entry /arg0 % 3 == 1/ { @ = sum(arg0); }'
	'pid$target::work:entry { @ = count(); }'
	'pid$target::work: { @[probename] = count(); }'
	'syscall::clock_nanosleep:entry /pid == $target/ { @ = count(); }'
)
[ -n "$sdt" ] && probes+=('chaos$target:::tick { @ = count(); }')

# Wait up to 10 s for no process to carry tag $1; 0 if none does.
gone() {
	for _ in $(seq 100); do
		pgrep -f -- "$1" >/dev/null || return 0
		sleep 0.1
	done
	return 1
}

# Wait for background process $1 to run dtrace itself (not yet the shell,
# env or libtool's wrapper script that start it): a signal sent before
# would hit those.
execd() {
	for _ in $(seq 2000); do
		case $(readlink "/proc/$1/exe" 2>/dev/null) in
		*/dtrace | */lt-dtrace) return 0 ;;
		esac
	done
	return 1
}

# One round against target $2 on engine $1 (round number $3).
round() {
	local engine=$1 t=$2 r=$3 tag="chaos-$$-$r" d sig delay
	local probe=${probes[RANDOM % ${#probes[@]}]}

	# Start-up and attach take the first ~100 ms: a third of the
	# moments fall there, the rest while tracing.
	case $((RANDOM % 3)) in
	0) delay=$(printf '0.%03d' $((RANDOM % 100))) ;;
	1) delay=$(printf '0.%03d' $((100 + RANDOM % 150))) ;;
	2) delay=$(printf '0.%03d' $((250 + RANDOM % 200))) ;;
	esac
	"${dflint[@]}" "$dtrace" -x engine="$engine" -q -p "$t" \
	    -n "/* $tag */ $probe" \
	    >/dev/null 2>&1 &
	d=$!
	execd "$d"
	sleep "$delay"
	case $((RANDOM % 4)) in
	0) sig=KILL; kill -KILL "$d" ;;
	1) sig=TERM; kill -TERM "$d" ;;
	2) sig=INT; kill -INT "$d" ;;
	3) sig=INT+KILL; kill -INT "$d"
	   sleep "0.0$((RANDOM % 10))"; kill -KILL "$d" 2>/dev/null ;;
	esac
	what="round $r ($engine, SIG$sig after ${delay}s, $probe)"
	ends "$d" || failed "$what: dtrace did not end"
	gone "$tag" || { failed "$what: dtrace still runs"; pkill -KILL -f \
	    -- "$tag"; }
	if [ ! -d "/proc/$t" ]; then
		failed "$what: the target died"
		return 1
	fi
	grep -q '^TracerPid:[[:space:]]*0$' "/proc/$t/status" ||
	    failed "$what: the target is still traced"
	case $(awk '/^State:/ { print $2 }' "/proc/$t/status") in
	t|T) failed "$what: the target is left stopped" ;;
	esac
	return 0
}

# A -c round: the created process dies with dtrace, whatever signal is
# sent to the dtrace started or (SIGKILL) to its child that traces
# (cmd/dtrace_guard.c).
cround() {
	local engine=$1 r=$2 tag="chaos-$$-c$r" d c sig victim
	sig=$(shuf -n1 -e KILL TERM INT)
	"${dflint[@]}" "$dtrace" -x engine="$engine" -q \
	    -c "$tmp/chaos-target $tmp/$tag" \
	    -n 'pid$target::work:return { @ = count(); }' >/dev/null 2>&1 &
	d=$!
	execd "$d"
	sleep "0.$((RANDOM % 3))$((RANDOM % 10))"
	victim=$d
	# The tracing child is the created process's parent, once there is
	# one.
	c=$(pgrep -x -f -- "$tmp/chaos-target $tmp/$tag")
	if [ -n "$c" ] && [ $((RANDOM % 2)) -eq 0 ]; then
		victim=$(awk '/^PPid:/ { print $2 }' "/proc/$c/status" 2>/dev/null)
		sig=KILL
	fi
	kill -"$sig" "${victim:-$d}"
	ends "$d" || failed "-c round $r ($engine, SIG$sig): dtrace did not end"
	if gone "$tag"; then
		cok=$((cok + 1))
	else
		failed "-c round $r ($engine, SIG$sig to $victim): a process is left"
	fi
}

before=$(orphans)
r=0 cok=0
for engine in $engines; do
	rm -f "$tmp/stop.$engine"
	"$tmp/chaos-target" "$tmp/stop.$engine" >"$tmp/out.$engine" &
	t=$!
	for _ in $(seq 45); do
		r=$((r + 1))
		round "$engine" "$t" "$r" || break
	done
	for _ in $(seq 8); do
		r=$((r + 1))
		cround "$engine" "$r"
	done
	touch "$tmp/stop.$engine"
	wait "$t"
	st=$?
	if [ "$st" -ne 0 ] ||
	    [ "$(cat "$tmp/out.$engine")" != "$(printf 'sums ok\ntext ok')" ]; then
		failed "$engine: the target ended with status $st, printing:"
		cat "$tmp/out.$engine"
	else
		echo "ok: $engine: the target survived 45 killed dtraces intact"
	fi
done
echo "ok: $cok of 16 -c rounds: the created process ended with dtrace"
leaked=$(comm -13 <(echo "$before") <(orphans))
if [ -n "$leaked" ]; then
	failed "BPF objects left that no process holds:"
	echo "$leaked"
else
	echo "ok: no BPF program, map or link left behind"
fi
if [ -n "$(probe_events)" ]; then
	failed "uprobes left behind:"
	probe_events
else
	echo "ok: no uprobe left behind"
fi
echo "$r rounds"
exit $fail

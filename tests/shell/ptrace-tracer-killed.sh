#!/bin/bash
# SPDX-License-Identifier: MIT
# ptrace-tracer-killed.sh: the process that traces, SIGKILLed at random
# moments, never harms a -p process on the ptrace engine.
#
# dtrace(1) traces from a child of the dtrace the user started
# (cmd/dtrace_guard.c); signals sent to dtrace are passed on, but a
# SIGKILL straight to the child (the OOM killer's choice, say) leaves it
# no chance to take its breakpoints out.  One long-running target
# (data/chaos-target.c, which checks every result it computes) is traced
# with -p over and over; each round picks a probe (return, predicated
# entry, every instruction of a function, USDT, counting entry) and a
# moment from start-up to well into tracing, and SIGKILLs the tracing
# child then.  After every round the target runs, untraced and not
# stopped.  At the end it must print what an untraced run prints: every
# result right, and the text of its functions as it was.
set -u

command -v cc >/dev/null || { echo "needs a C compiler (cc)"; exit 77; }

tmp=$(mktemp -d)
trap 'touch "$tmp/stop"; rm -rf "$tmp"' EXIT
dtrace=$top_builddir/cmd/dtrace
sdt=
echo '#include <sys/sdt.h>' | cc -E - >/dev/null 2>&1 && sdt=-DHAVE_SDT
cc -O1 -fno-inline $sdt -o "$tmp/target" \
    "$top_srcdir/tests/shell/data/chaos-target.c" || exit 1

. "$top_srcdir/tests/shell/lib.sh"	# ends()
fail=0
failed() { echo "FAIL: $*"; fail=1; }

probes=(
	'pid$target::work:return { @ = count(); }'
	'pid$target::work:entry /arg0 % 3 == 1/ { @ = sum(arg0); }'
	'pid$target::work:entry { @ = count(); }'
	'pid$target::work: { @[probename] = count(); }'
)
[ -n "$sdt" ] && probes+=('chaos$target:::tick { @ = count(); }')

# The process running dtrace among the children of $2, and $2 itself
# when $1 is "self" (not the shell or libtool's wrapper that starts it),
# waited for up to 5 s.
dtrace_in() {
	local p
	for _ in $(seq 500); do
		for p in ${1:+"$2"} $(pgrep -P "$2"); do
			case $(readlink "/proc/$p/exe" 2>/dev/null) in
			*/dtrace | */lt-dtrace) echo "$p"; return 0 ;;
			esac
		done
		sleep 0.01
	done
	return 1
}
# dtrace among $1 and its children; the child of guard $1 that traces.
dtrace_of() { dtrace_in self "$1"; }
tracer_of() { dtrace_in "" "$1"; }

"$tmp/target" "$tmp/stop" >"$tmp/out" &
t=$!
rounds=100
for r in $(seq $rounds); do
	probe=${probes[RANDOM % ${#probes[@]}]}
	# Start-up and attach take the first ~100 ms: a third of the
	# moments fall there, the rest while tracing.
	case $((RANDOM % 3)) in
	0) delay=$(printf '0.%03d' $((RANDOM % 100))) ;;
	1) delay=$(printf '0.%03d' $((100 + RANDOM % 150))) ;;
	2) delay=$(printf '0.%03d' $((250 + RANDOM % 200))) ;;
	esac
	"$dtrace" -x engine=ptrace -q -p "$t" -n "$probe" >/dev/null 2>&1 &
	d=$!
	what="round $r (SIGKILL to the tracer after ${delay}s, $probe)"
	# The guard, then its child that traces.
	g=$(dtrace_of "$d") && c=$(tracer_of "$g") ||
	    { failed "$what: no tracing child"; break; }
	sleep "$delay"
	kill -KILL "$c"
	ends "$d" || failed "$what: dtrace did not end"
	if ! kill -0 "$t" 2>/dev/null; then
		failed "$what: the target died"
		break
	fi
	for _ in $(seq 50); do
		grep -q '^TracerPid:[[:space:]]*0$' "/proc/$t/status" && break
		sleep 0.1
	done
	grep -q '^TracerPid:[[:space:]]*0$' "/proc/$t/status" ||
	    failed "$what: the target is still traced"
	case $(awk '/^State:/ { print $2 }' "/proc/$t/status") in
	t|T) failed "$what: the target is left stopped" ;;
	esac
done
touch "$tmp/stop"
wait "$t"
st=$?
if [ "$st" -ne 0 ] || [ "$(cat "$tmp/out")" != "$(printf 'sums ok\ntext ok')" ]; then
	failed "the target ended with status $st, printing:"
	cat "$tmp/out"
else
	echo "ok: the target survived $rounds tracers SIGKILLed, intact"
fi
exit $fail

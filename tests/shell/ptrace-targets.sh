#!/bin/bash
# SPDX-License-Identifier: MIT
# ptrace-targets.sh: -p targets the ptrace engine must not harm, attached
# and let go round after round.
#
# Sleeping system calls: coreutils sleep, cat reading a pipe, python3 in
# select(), and data/ptrace-targets.c with 2, 4 and 32 threads in futex
# waits, nanosleep, pthread_cond_wait and pthread_join.  dtrace stops
# their threads inside those calls, injects system calls (mmap, mprotect,
# rt_sigaction) and puts the registers back: each call must restart as if
# nothing had happened, never end with one of the kernel's restart codes
# (ERESTARTSYS 512 ... ERESTART_RESTARTBLOCK 516) nor early.  Each round
# traces every one of them at once with a pid probe, waits a random
# moment (start-up to tracing), and ends each dtrace with SIGINT (^C),
# SIGTERM, SIGKILL to the child that traces (cmd/dtrace_guard.c), or
# SIGKILL to both dtrace processes as soon as a thread of the target is
# seen in an injected call (data/ptrace-targets.c catch): the thread must
# go back by itself, not wait forever in dtrace's code for a guard that
# is gone (x86-64; elsewhere those rounds end both later).
# After every round every target still runs; at the end each gets its
# input or its stop and must end with its own status and output.
#
# A daemon left by a -c command runs on when both dtrace processes are
# SIGKILLed (3 rounds).
#
# Targets it cannot protect are refused up front with one line and a
# non-zero status, and left as they were: a process whose threads block
# every signal (the breakpoint's SIGILL, which mends a breakpoint should
# dtrace be killed, cannot reach it) and one under a seccomp filter that
# kills it for mprotect(2) and refuses rt_sigaction(2).
#
# ROUNDS sets the rounds: 30 by default, which keeps the test under a
# minute on a two-processor machine (each round is about 1.3 s there, most
# of it dtrace's start-up); ROUNDS=50 runs fifty rounds of each kind of
# target (about 70 s there, unloaded).  The threads targets with 2 and 4
# threads get a fifth of the rounds (at least 2), the 32 threads one all.
set -u
# Background commands of a script start with SIGINT ignored; dtrace gets
# its default action back (and resets it itself).
dflint=()
env --default-signal=INT true 2>/dev/null && dflint=(env --default-signal=INT)

command -v cc >/dev/null || { echo "needs a C compiler (cc)"; exit 77; }
why=$("$top_builddir/cmd/dtrace" -q -x engine=ptrace -n 'BEGIN { exit(0); }' \
    2>&1 | sed -n 's/.*the ptrace engine is not available: //p')
[ -z "$why" ] || { echo "no ptrace engine here: $why"; exit 77; }

tmp=$(mktemp -d)
pids=()
trap 'touch "$tmp/stop"; exec 3>&- 4>&- 2>/dev/null;
    kill -KILL "${pids[@]}" 2>/dev/null; rm -rf "$tmp"' EXIT
dtrace=$top_builddir/cmd/dtrace
cc -O1 -fno-inline -pthread -o "$tmp/target" \
    "$top_srcdir/tests/shell/data/ptrace-targets.c" || exit 1
rounds=${ROUNDS:-30}
# The shell's notice of each dtrace killed would bury the test's own
# lines: its stderr, and the targets', go to a file, shown on failure.
exec 2>"$tmp/stderr"
few=$((rounds / 5 < 2 ? 2 : rounds / 5))
fail=0
failed() { echo "FAIL: $*"; fail=1; }

# The child of guard $1 that traces, waited for up to 5 s.
# Whether process $1 catches SIGINT (SigCgt, bit 1).
caught_int() {
	local m
	m=$(awk '$1 == "SigCgt:" { print $2 }' "/proc/$1/status" 2>/dev/null)
	[ -n "$m" ] && (( 0x$m & 2 ))
}

tracer_of() {
	local p
	for _ in $(seq 500); do
		for p in $(pgrep -P "$1"); do
			case $(readlink "/proc/$p/exe" 2>/dev/null) in
			*/dtrace | */lt-dtrace) echo "$p"; return 0 ;;
			esac
		done
		sleep 0.01
	done
	return 1
}

# The targets: name, pid, and the probe each is traced with.
names=() probe=()
start() {	# start NAME PROBE CMD...
	names+=("$1")
	probe+=("$2")
	shift 2
	"$@" >"$tmp/tout.${#pids[@]}" &
	pids+=($!)
}
mkfifo "$tmp/pipe.cat" "$tmp/pipe.py"
malloc='pid$target:libc.so.6:malloc:entry { @ = count(); }'
work='pid$target::work:entry /arg0 > 0/ { @ = count(); }'
start sleep "$malloc" sleep 1000
start cat "$malloc" sh -c "exec cat <'$tmp/pipe.cat' >'$tmp/out.cat'"
start python3-select "$malloc" sh -c "exec python3 -c '
import select, sys
r, _, _ = select.select([sys.stdin], [], [])
print(\"ready\", sys.stdin.readline().strip())' <'$tmp/pipe.py' \
    >'$tmp/out.py'"
exec 3>"$tmp/pipe.cat" 4>"$tmp/pipe.py"
start threads-32 "$work" "$tmp/target" threads 32 "$tmp/stop"
start threads-2 "$work" "$tmp/target" threads 2 "$tmp/stop"
start threads-4 "$work" "$tmp/target" threads 4 "$tmp/stop"
start blocked "$work" "$tmp/target" blocked "$tmp/stop"
start seccomp "$work" "$tmp/target" seccomp "$tmp/stop"
sleep 0.5	# every target at its sleeping call

alive() {	# alive I WHAT: target I runs and nothing traces it
	local p=${pids[$1]}
	if ! kill -0 "$p" 2>/dev/null ||
	    [ "$(awk '/^State:/ { print $2 }' "/proc/$p/status")" = Z ]; then
		failed "$2: ${names[$1]} died"
		return 1
	fi
	for _ in $(seq 50); do
		grep -q '^TracerPid:[[:space:]]*0$' "/proc/$p/status" && break
		sleep 0.1
	done
	grep -q '^TracerPid:[[:space:]]*0$' "/proc/$p/status" ||
	    failed "$2: ${names[$1]} is still traced"
}

# An injected call goes back by itself on x86-64 only (isa/dt_isa.h,
# dt_isa_ptrace_injback()).
nsig=3
[ "$(uname -m)" = x86_64 ] && nsig=4
dead=()
for r in $(seq "$rounds"); do
	ds=() is=()
	for i in "${!names[@]}"; do
		[ -z "${dead[$i]:-}" ] || continue
		case ${names[$i]} in
		threads-2 | threads-4) [ "$r" -le "$few" ] || continue ;;
		esac
		# The refused: nothing to end, only their one line.
		case ${names[$i]} in
		blocked | seccomp)
			"$dtrace" -x engine=ptrace -q -p "${pids[$i]}" \
			    -n "${probe[$i]}" >/dev/null 2>"$tmp/err.$i" &
			;;
		*)
			"${dflint[@]}" "$dtrace" -x engine=ptrace -q \
			    -p "${pids[$i]}" -n "${probe[$i]}" \
			    >/dev/null 2>"$tmp/err.$i" &
			;;
		esac
		ds+=($!) is+=("$i")
	done
	# Start-up and attach take the first ~300 ms here.
	delay=$(printf '0.%03d' $((RANDOM % 500)))
	sig=$((RANDOM % nsig))
	if [ "$sig" -eq 3 ]; then
		# Both dtrace processes SIGKILLed as a system call is
		# injected, as far as a poll of /proc sees one: for one
		# target a round, in turn (each poll keeps a processor busy).
		delay=injection
		k=$((r % ${#ds[@]}))
		i=${is[$k]}
		case ${names[$i]} in
		blocked | seccomp) ;;
		*) c=$(tracer_of "${ds[$k]}") &&
		    "$tmp/target" catch "${ds[$k]}" "$c" "${pids[$i]}" ;;
		esac
	else
		sleep "$delay"
	fi
	for k in "${!ds[@]}"; do
		i=${is[$k]}
		case ${names[$i]} in blocked | seccomp) continue ;; esac
		case $sig in
		0)
			# A background job of a script starts with SIGINT
			# ignored (POSIX), until dtrace catches it: sent before,
			# it is lost, as for any program.
			for _ in $(seq 100); do
				caught_int "${ds[$k]}" && break
				sleep 0.01
			done
			kill -INT "${ds[$k]}" 2>/dev/null ;;
		1) kill -TERM "${ds[$k]}" 2>/dev/null ;;
		2) c=$(tracer_of "${ds[$k]}") && kill -KILL "$c" ;;
		3) c=$(tracer_of "${ds[$k]}") &&
		    kill -KILL "$c" "${ds[$k]}" 2>/dev/null ;;
		esac
	done
	for k in "${!ds[@]}"; do
		i=${is[$k]}
		what="round $r (${names[$i]}, signal $sig after ${delay}s)"
		# Up to 30 s: several dtrace start at once, on a machine
		# that may be busy with more.
		for _ in $(seq 300); do
			kill -0 "${ds[$k]}" 2>/dev/null || break
			sleep 0.1
		done
		if kill -0 "${ds[$k]}" 2>/dev/null; then
			failed "$what: dtrace did not end"
			kill -KILL "${ds[$k]}"
		fi
		wait "${ds[$k]}" 2>/dev/null
		st=$?
		case ${names[$i]} in
		blocked | seccomp)
			n=$(wc -l <"$tmp/err.$i")
			w=blocks
			[ "${names[$i]}" = seccomp ] && w=seccomp
			if [ "$st" -eq 0 ] || [ "$n" -ne 1 ] ||
			    ! grep -q "not traced: .*$w" "$tmp/err.$i"; then
				failed "$what: not refused in one line" \
				    "(status $st): $(cat "$tmp/err.$i")"
			fi
			;;
		esac
		alive "$i" "$what" || dead[$i]=1
	done
done

# A daemon a -c command leaves is not dtrace's: with both dtrace
# processes SIGKILLed it runs on (the command itself dies with dtrace).
printf '%s\n' '#!/bin/sh' \
    'setsid sleep 600 </dev/null >/dev/null 2>&1 &' \
    'echo $! >"$1"' 'exec sleep 600' >"$tmp/daemonize"
chmod +x "$tmp/daemonize"
for r in 1 2 3; do
	rm -f "$tmp/daemon"
	"$dtrace" -x engine=ptrace -q -c "$tmp/daemonize $tmp/daemon" \
	    -n 'syscall::getppid:entry { @ = count(); }' >/dev/null &
	g=$!
	for _ in $(seq 100); do [ -s "$tmp/daemon" ] && break; sleep 0.1; done
	sleep 0.5	# the command and its daemon traced, as a while into a run
	c=$(tracer_of "$g")
	dm=$(cat "$tmp/daemon" 2>/dev/null)
	kill -KILL "$c" "$g"
	wait "$g"
	sleep 0.2
	if [ -z "$dm" ] || ! kill -0 "$dm" 2>/dev/null; then
		failed "daemon round $r: the daemon of the -c command died"
	else
		kill -KILL "$dm"
	fi
done

# The ends: each target's own status and output.
touch "$tmp/stop"
echo data >&3
echo line >&4
exec 3>&- 4>&-
kill -TERM "${pids[0]}"
for i in "${!names[@]}"; do
	[ -z "${dead[$i]:-}" ] || continue
	# A thread left in dtrace's code would never end.
	for _ in $(seq 100); do
		kill -0 "${pids[$i]}" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "${pids[$i]}" 2>/dev/null; then
		failed "${names[$i]} did not end"
		continue
	fi
	wait "${pids[$i]}"
	st=$?
	case ${names[$i]} in
	sleep) want=143 out= ;;
	cat) want=0 out=$(cat "$tmp/out.cat") ;;
	python3-select) want=0 out=$(cat "$tmp/out.py") ;;
	*) want=0 out= ;;
	esac
	case ${names[$i]} in
	threads-*) grep -qx "ok ${names[$i]#threads-} threads" \
	    "$tmp/tout.$i" || failed "${names[$i]} printed" \
	    "'$(cat "$tmp/tout.$i")'" ;;
	blocked | seccomp) grep -qx "ok ${names[$i]}" "$tmp/tout.$i" ||
	    failed "${names[$i]} printed '$(cat "$tmp/tout.$i")'" ;;
	cat) [ "$out" = data ] || failed "cat printed '$out', not data" ;;
	python3-select) [ "$out" = "ready line" ] ||
	    failed "python3 printed '$out', not 'ready line'" ;;
	esac
	[ "$st" -eq "$want" ] ||
	    failed "${names[$i]} ended with status $st, not $want"
done
if [ "$fail" -eq 0 ]; then
	echo "ok: $rounds rounds ($few with 2 and 4 threads), every target" \
	    "alive and right"
else
	grep -v ' Killed \| Terminated \| Interrupt ' "$tmp/stderr"
fi
exit $fail

# SPDX-License-Identifier: MIT
# as-nobody.sh: sourced by the ptrace engine's tests (ptrace-engine.sh,
# ptrace-syscall.sh) once they have made $tmp.  As root it drops to user
# nobody (setpriv), so that the ptrace engine runs as it would for any
# user; otherwise it runs as the caller.  It sets:
#
#	asroot		true when the test runs as root
#	as_user		the command prefix that runs as that user
#	dt		dtrace as that user sees it, run from $tmp
#	user CMD...	CMD as that user, in $tmp
#	check WHAT WANT GOT	prints ok or the difference; failures set fail=1
#	exitkill_check D	dtrace -c "./t wait $tmp/stop2" -n D, SIGKILLed
#			(the dtrace started, then the child of it that
#			traces): its -c child must die with it
asroot=false
if [ "$(id -u)" -eq 0 ]; then
	command -v setpriv >/dev/null || {
		echo "needs setpriv (util-linux) to drop privileges"
		exit 77
	}
	asroot=true
	chmod 755 "$tmp"
	# The build tree may not be readable by nobody: copy what runs.
	cp "$top_builddir/cmd/.libs/dtrace" "$tmp/" &&
	    cp -a "$top_builddir"/.libs/libdtrace.so* "$tmp/" || exit 1
	as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups
	    env LD_LIBRARY_PATH="$tmp")
	dt=(./dtrace)
else
	as_user=()
	dt=("$top_builddir/cmd/dtrace")
fi
# Background commands are started as (cd "$tmp" && exec ...) & so that $!
# is the process itself.
user() { (cd "$tmp" && exec "${as_user[@]}" "$@"); }

fail=0
check() {
	if [ "$2" != "$3" ]; then
		printf 'FAIL: %s\n--- want\n%s\n--- got\n%s\n' "$1" "$2" "$3"
		fail=1
	else
		echo "ok: $1"
	fi
}

exitkill_check() {
	local victim
	for victim in dtrace tracer; do
		exitkill_one "$1" "$victim"
	done
}

# dtrace -c CMD -n D, then SIGKILL to the dtrace started ($2 = dtrace) or
# to the child of it that traces ($2 = tracer, cmd/dtrace_guard.c): the
# -c process dies either way.
exitkill_one() {
	(cd "$tmp" && exec "${as_user[@]}" "${dt[@]}" -q -x engine=ptrace \
	    -c "./t wait $tmp/stop2" -n "$1" >/dev/null 2>&1) &
	local dpid=$! tpid cpid st
	sleep 1
	tpid=$(cat /proc/"$dpid"/task/*/children 2>/dev/null | tr -d ' ')
	cpid=$(cat /proc/"$tpid"/task/*/children 2>/dev/null | tr -d ' ')
	if [ "$2" = dtrace ]; then
		kill -KILL "$dpid"
	else
		kill -KILL "$tpid"
	fi
	wait "$dpid" 2>/dev/null
	sleep 0.5
	# Its state, or none once it is gone (it may go as it is read).
	st=$(awk '/^State:/ { print $2 }' "/proc/$cpid/status" 2>/dev/null)
	if [ -z "$cpid" ]; then
		check "the -c child of dtrace" "a pid" "none"
	elif [ -n "$st" ] && [ "$st" != Z ]; then
		kill -KILL "$cpid"
		check "-c child killed with $2" "gone" "running"
	else
		echo "ok: -c child killed with $2"
	fi
}

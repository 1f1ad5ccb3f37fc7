# SPDX-License-Identifier: MIT
# -x cpu traces on one CPU only: BEGIN and END fire there, and probes
# that fire on other CPUs do nothing.  A CPU that does not exist is an
# error.  A CPU may take no profile tick while it is idle (a virtual
# machine's idle CPU can sleep through its timer), so a spinner keeps the
# traced CPU busy.
# @requires: os:linux
command -v taskset >/dev/null || { echo "needs taskset"; exit 77; }
last=$(($(getconf _NPROCESSORS_ONLN) - 1))
for which in first last; do
	c=0
	[ $which = last ] && c=$last
	taskset -c $c sh -c 'while :; do :; done' &
	spin=$!
	got=$("$DTRACE" -x cpu=$c -q -n 'BEGIN, END { printf("%d ", cpu); }
	    profile-50ms { printf("%d", cpu); exit(0); }')
	kill $spin
	wait $spin 2>/dev/null
	[ "$got" = "$c $c$c " ] && echo "$which cpu: ok" ||
	    echo "$which cpu ($c): got '$got'"
done
"$DTRACE" -x cpu=$((last + 1)) -n BEGIN 2>&1 | sed "s/CPU $((last + 1))/CPU N/"

# -x cpu traces on one CPU only: BEGIN and END fire there, and probes
# that fire on other CPUs do nothing.  A CPU that does not exist is an
# error.
last=$(($(getconf _NPROCESSORS_ONLN) - 1))
for which in first last; do
	c=0
	[ $which = last ] && c=$last
	got=$("$DTRACE" -x cpu=$c -q -n 'BEGIN, END { printf("%d ", cpu); }
	    profile-50ms { printf("%d", cpu); exit(0); }')
	[ "$got" = "$c $c$c " ] && echo "$which cpu: ok" ||
	    echo "$which cpu ($c): got '$got'"
done
"$DTRACE" -x cpu=$((last + 1)) -n BEGIN 2>&1 | sed "s/CPU $((last + 1))/CPU N/"

# SPDX-License-Identifier: MIT
# With an aggrate no longer than the switchrate, every drain while
# tracing refreshes the consumer's copy of the aggregations, as DTrace's
# refresh before each drain does, and the copy is taken when a record of
# the drain first reads it: so the printa() of the Nth tick prints at
# least N, the count its clause left.  It may print more: ticks 20 ms
# apart can land in one drain on a slow machine (an emulated guest),
# and then both print the later count.  A stale copy would print less.
# On both engines.
# @requires: os:linux root
prog='tick-20ms /n++ < 3/ { @ = count(); printa("tick %@d\n", @); }
tick-20ms /n > 3/ { exit(0); }'
for e in interp bpf; do
	echo "engine $e"
	"$DTRACE" -x engine=$e -q -x switchrate=1s -x aggrate=1s -n "$prog" |
	    awk '$1 == "tick" && $2 >= NR && $2 <= 3 {
		print "tick " NR ": at least " NR; next } { print }'
done

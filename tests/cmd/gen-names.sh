# SPDX-License-Identifier: MIT
# -h and -G name their output as DTrace does when -o is not given: after
# the first script, in the current directory (sub/x.d: x.h, x.o); -G of
# a script not named *.d writes d.out, and -h of one asks for -o.  A
# provider's probe may take up to the 12 arguments <sys/sdt.h> sites
# carry, and one more is refused with one line.
# @requires: os:linux
mkdir sub
printf 'provider p { probe q(int); };\n' >sub/x.d
"$DTRACE" -h -s sub/x.d
echo "exit $?"
"$DTRACE" -G -s sub/x.d
echo "exit $?"
"$DTRACE" -G -s /dev/stdin <sub/x.d
echo "exit $?"
"$DTRACE" -h -s /dev/stdin <sub/x.d 2>&1
echo "exit $?"
ls d.out x.h x.o
a12=int; for i in 2 3 4 5 6 7 8 9 10 11 12; do a12="$a12, int"; done
printf 'provider p { probe twelve(%s); };\n' "$a12" >p12.d
"$DTRACE" -h -s p12.d -o p12.h
echo "exit $?"
grep -c 'DTRACE_PROBE12' p12.h
printf 'provider p { probe thirteen(%s, int); };\n' "$a12" >p13.d
"$DTRACE" -h -s p13.d -o p13.h 2>&1
echo "exit $?"

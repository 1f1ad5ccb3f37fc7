# SPDX-License-Identifier: MIT
# The build without an OS backend (configure --with-os=none): D on the
# interpreter, profile-N from a timer on the one CPU it knows, -c
# commands started and waited for; what needs an OS is refused in one
# line: its engines, its providers, static probes (-h, -G).
# @requires: os:none
"$DTRACE" -n 'BEGIN { printf("%d\n", 1 + 2); exit(0); }' 2>&1
echo "status $?"
"$DTRACE" -q -n 'profile-97 /++n == 3/ { printf("profile-97 fired %d times, on CPU %d\n", n, cpu); exit(0); }'
echo "status $?"
"$DTRACE" -q -c 'echo the command ran' \
    -n 'END { printf("END after the command, target %s\n", $target > 0 ? "set" : "unset"); }'
echo "status $?"
"$DTRACE" -c nosuchcommand-xyz -n BEGIN
echo "status $?"
"$DTRACE" -x engine=bpf -n BEGIN
echo "status $?"
"$DTRACE" -n 'syscall:::entry { exit(0); }'
echo "status $?"
printf 'provider myprov { probe go(int); };\n' >prov.d
"$DTRACE" -h -s prov.d -o prov.h
echo "status $?"
"$DTRACE" -G -s prov.d -o prov.o
echo "status $?"

# SPDX-License-Identifier: MIT
# -x version takes a D version DTrace defines (-V prints ours last); a
# boolean option may be given a number, as in DTrace's quiet=1.
v=$("$DTRACE" -V | awk '{ print $NF }')
"$DTRACE" -x version="$v" -q -n 'BEGIN { exit(0); }'
echo "status $?"
"$DTRACE" -x version=1.2.1 -q -n 'BEGIN { exit(0); }'
echo "status $?"
"$DTRACE" -x version=99.1 -n 'BEGIN { exit(0); }'
"$DTRACE" -x version=1.x -n 'BEGIN { exit(0); }'
"$DTRACE" -x quiet=1 -n 'BEGIN { printf("quiet\n"); exit(0); }'
"$DTRACE" -x quiet=yes -n 'BEGIN { exit(0); }'

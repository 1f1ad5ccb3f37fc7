# SPDX-License-Identifier: MIT
# A principal buffer smaller than a record an enabling writes (a 16-byte
# header and 8 bytes of trace(1) here) refuses tracing, as DTrace does;
# one just large enough traces.
"$DTRACE" -q -x bufsize=0 -n 'BEGIN { trace(1); exit(0); }'
echo "status $?"
"$DTRACE" -q -x bufsize=23 -n 'BEGIN { trace(1); exit(0); }'
echo "status $?"
"$DTRACE" -q -x bufsize=24 -n 'BEGIN { trace(1); exit(0); }'
echo "status $?"

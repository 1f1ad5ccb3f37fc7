# SPDX-License-Identifier: MIT
# Processes that cannot be traced: one line each, exit 1 (2 for a usage
# error).  Runs as any user: nothing is traced.
"$DTRACE" -n BEGIN -c /nonexistent/command 2>&1; echo "exit $?"
"$DTRACE" -n BEGIN -p 12abc 2>&1; echo "exit $?"
"$DTRACE" -n BEGIN -p 0 2>&1; echo "exit $?"
# Beyond the largest pid the kernel hands out.
"$DTRACE" -n BEGIN -p 2147483647 2>&1; echo "exit $?"
"$DTRACE" -n BEGIN -c ' ' 2>&1

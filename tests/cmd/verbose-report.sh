# SPDX-License-Identifier: MIT
# -v reports each program's stability: the lowest attributes of its
# probe descriptions (one that may match any provider is Unstable) and of
# its statements (D's actions are Stable; reading a probe's arguments
# makes a statement no more stable than they are).  -q keeps the report.
# @requires: os:linux
"$DTRACE" -v -q -n ':::BEGIN { printf("%d\n", 2); exit(0); }'
"$DTRACE" -v -q -n 'dtrace:::BEGIN { exit(0); }' | grep -A3 Description
"$DTRACE" -v -q -n 'syscall::read:entry /pid == -1/ { trace(arg0); }
    BEGIN { exit(0); }' | grep -A3 Statement
# With -e the report is of what would have been enabled.
"$DTRACE" -v -e -n 'dtrace:::BEGIN { exit(0); }' | grep -A3 Statement

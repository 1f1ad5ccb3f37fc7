# SPDX-License-Identifier: MIT
# A program runs to exit(): quiet output, the status passed to exit().
"$DTRACE" -q -n 'BEGIN { printf("%s %d\n", strjoin("a", "b"), strlen("hello")); exit(7); }'

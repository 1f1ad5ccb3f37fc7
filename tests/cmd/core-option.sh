# SPDX-License-Identifier: MIT
# -x core makes dtrace dump core (SIGABRT) when it exits, to debug dtrace
# itself.  The core size limit is 0 here, so that no core file is left.
ulimit -c 0
"$DTRACE" -x core -q -n 'BEGIN { printf("traced\n"); exit(0); }' 2>&1 | cat
echo "status ${PIPESTATUS[0]}"

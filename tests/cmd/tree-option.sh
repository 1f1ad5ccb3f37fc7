# SPDX-License-Identifier: MIT
# -x tree prints each program's checked parse tree on stderr.
"$DTRACE" -x tree=1 -e -n 'BEGIN { x = 1; }' 2>&1 | grep -c 'CLAUSE\|PDESC "BEGIN"\|VAR "x"'

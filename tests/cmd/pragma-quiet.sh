# SPDX-License-Identifier: MIT
# "#pragma D option quiet" in a script is -q: no "matched" banner either.
"$DTRACE" -s /dev/stdin <<'EOD'
#pragma D option quiet
BEGIN { printf("q\n"); exit(0); }
EOD

# SPDX-License-Identifier: MIT
# -B (illumos's undocumented buffered-output switch) is an unknown option:
# the usage on stderr, status 2, nothing traced.
"$DTRACE" -B -n 'BEGIN { trace("ran"); exit(0); }' 2>&1 | sed -n 1,2p
echo "status ${PIPESTATUS[0]}"

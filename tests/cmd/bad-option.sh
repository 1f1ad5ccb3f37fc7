# SPDX-License-Identifier: MIT
# An unknown option prints the usage on stderr and exits 2.
"$DTRACE" -Q 2>&1 >/dev/null | sed -n 1,2p
echo "status ${PIPESTATUS[0]}"

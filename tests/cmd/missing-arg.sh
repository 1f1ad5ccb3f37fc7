# SPDX-License-Identifier: MIT
# An option missing its argument is a usage error.
"$DTRACE" -q -x 2>&1 >/dev/null | sed -n 1,2p
echo "status ${PIPESTATUS[0]}"

# SPDX-License-Identifier: MIT
# -X accepts only a, c, s or t; anything else is a usage error.
"$DTRACE" -X q -n BEGIN 2>&1 >/dev/null | sed -n 1,2p
echo "status ${PIPESTATUS[0]}"

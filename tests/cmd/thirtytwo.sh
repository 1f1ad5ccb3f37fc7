# SPDX-License-Identifier: MIT
# -32 and -64 are the only data-model options; -33 is illegal.
"$DTRACE" -33 -n BEGIN 2>&1 | sed -n 1,1p
echo "status ${PIPESTATUS[0]}"

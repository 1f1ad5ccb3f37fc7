# SPDX-License-Identifier: MIT
# An unknown -x option is named with DTrace's message, exit 1.
"$DTRACE" -x nosuchopt=1 -n BEGIN

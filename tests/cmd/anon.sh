# SPDX-License-Identifier: MIT
# Anonymous tracing does not exist on Linux: -a and -A say so, exit 2.
"$DTRACE" -a -n BEGIN
echo "status $?"
"$DTRACE" -A -n BEGIN

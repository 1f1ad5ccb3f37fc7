# SPDX-License-Identifier: MIT
# dtrace alone prints the usage (exit 2); options with no probe
# descriptions have nothing to trace (exit 1), unless -e asks only to
# compile, which then succeeds.
"$DTRACE" 2>&1 >/dev/null | sed -n 1,1p
echo "status ${PIPESTATUS[0]}"
"$DTRACE" -q
echo "status $?"
"$DTRACE" -b 1k -b 2k -e
echo "status $?"

# SPDX-License-Identifier: MIT
# -w: dtrace says once that it allows destructive actions, after the
# banner; quiet (-q or a pragma) silences it.
"$DTRACE" -w -n 'BEGIN { exit(0); }' 2>&1 >/dev/null
echo "status $?"
"$DTRACE" -w -q -n 'BEGIN { exit(0); }' 2>&1 >/dev/null
echo "status $?"

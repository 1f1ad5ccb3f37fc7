# SPDX-License-Identifier: MIT
# -l lists what each description matches: one that matches nothing is
# reported, and the others are still listed (exit 0).
"$DTRACE" -l -n 'nosuchprovider:::entry' -n 'dtrace:::BEGIN'

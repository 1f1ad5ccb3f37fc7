# SPDX-License-Identifier: MIT
# -h needs at least one script given with -s.
"$DTRACE" -h -n 'BEGIN'

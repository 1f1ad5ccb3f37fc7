# SPDX-License-Identifier: MIT
# -lv of profile probes, by name and by ID: Evolving names and arguments,
# and no typed arguments (arg0 and arg1, the PCs, are untyped in DTrace).
"$DTRACE" -lv -n profile:::tick-1 -i 12

# SPDX-License-Identifier: MIT
# -l -P lists a provider's probes in DTrace's columns; the dtrace
# provider's BEGIN, END and ERROR are always IDs 1 to 3.
"$DTRACE" -l -P dtrace

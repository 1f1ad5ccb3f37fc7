# SPDX-License-Identifier: MIT
# -lv adds each probe's stability attributes and argument types in
# DTrace's layout; the dtrace provider's probes are Stable and untyped
# ("None"), ERROR included: its values are read as arg1..arg5.
"$DTRACE" -lv -P dtrace

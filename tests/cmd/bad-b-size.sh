# SPDX-License-Identifier: MIT
# -b takes a size with an optional k/m/g/t suffix.
"$DTRACE" -b 4q -n BEGIN

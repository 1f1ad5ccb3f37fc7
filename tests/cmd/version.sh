# SPDX-License-Identifier: MIT
# -V prints the D version and the implementation's version.
"$DTRACE" -V

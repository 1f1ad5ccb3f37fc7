# SPDX-License-Identifier: MIT
# --help prints the usage on stdout and succeeds.
"$DTRACE" --help | sed -n 1,3p

# SPDX-License-Identifier: MIT
# The command of -c starts with no signal blocked, whatever dtrace holds
# back while it starts tracing (SIGINT, SIGTERM, SIGHUP wait until then).
printf '#!/bin/sh\ngrep SigBlk /proc/self/status\n' >sigblk.sh
chmod +x sigblk.sh
"$DTRACE" -q -n 'BEGIN { }' -c ./sigblk.sh

# SPDX-License-Identifier: MIT
# -l -n lists the probes a description matches, globs included; the
# profile provider's standing probes follow the dtrace provider's.
"$DTRACE" -l -n 'profile:::tick-1*'

# SPDX-License-Identifier: MIT
# -x evaltime=exec stops a -c process as its exec returns, before the
# dynamic linker has run: a pid probe in the linker's startup fires (its
# _dl_debug_state(), which it calls as it maps the program's libraries
# and which every build of ld.so exports, so no debug symbols are
# needed).  By default the process stops at its entry point, the
# linker's work done, and libc is mapped.
# @requires: os:linux
probe='pid$target:ld-*:_dl_debug_state:entry'
"$DTRACE" -q -x evaltime=exec \
    -n "$probe"' /!seen/ { seen = 1; printf("linker start\n"); }' -c /bin/true
"$DTRACE" -q -Z -n "$probe"' { printf("linker start\n"); }' -c /bin/true
echo "status $?"
"$DTRACE" -l -n 'pid$target:libc.so*::entry' -c /bin/true | sed -n 2p |
    awk '{ print $3 }'
"$DTRACE" -x evaltime=exec -l -n 'pid$target:libc.so*::entry' \
    -c /bin/true 2>&1 | sed -n 2p | sed 's/pid[0-9]*/pidN/'

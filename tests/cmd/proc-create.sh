# SPDX-License-Identifier: MIT
# -c runs the command once tracing is on, sets $target, and tracing ends
# when the command does, with DTrace's notice (not under -q).  The command
# is split at white space, without a shell.
"$DTRACE" -q -c 'sh -c exit' -n 'BEGIN { printf("target set: %d\n", $target > 0); }'
echo "exit $?"
"$DTRACE" -c true -n 'BEGIN { trace($target > 0); }' 2>&1 >/dev/null |
    sed 's/pid [0-9]*/pid N/'
"$DTRACE" -c false -n BEGIN 2>&1 >/dev/null | sed 's/pid [0-9]*/pid N/'
"$DTRACE" -c 'sh -c kill$IFS-9$IFS$$' -n BEGIN 2>&1 >/dev/null |
    sed 's/pid [0-9]*/pid N/'
"$DTRACE" -q -c false -n BEGIN 2>&1

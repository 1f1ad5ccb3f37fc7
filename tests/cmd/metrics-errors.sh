# SPDX-License-Identifier: MIT
# -x metrics and -x metricslabels refused with one line each, before any
# probe is enabled: a bad port, an address not on this machine, a label
# that is not a label name (le is the histograms'), labels for an
# aggregation the program does not have or for more keys than it has.
"$DTRACE" -x engine=interp -x metrics=127.0.0.1:99999 -n 'BEGIN { exit(0); }'
echo "status $?"
"$DTRACE" -x engine=interp -x metrics=192.0.2.1:0 -n 'BEGIN { exit(0); }'
echo "status $?"
"$DTRACE" -x engine=interp -x metricslabels=c:le -n 'BEGIN { exit(0); }'
echo "status $?"
"$DTRACE" -x engine=interp -x metricslabels=c:1x -n 'BEGIN { exit(0); }'
echo "status $?"
"$DTRACE" -x engine=interp -x metricslabels=c -n 'BEGIN { exit(0); }'
echo "status $?"
"$DTRACE" -x engine=interp -x metrics=0 -x metricslabels=d:x \
    -n 'BEGIN { @c = count(); exit(0); }'
echo "status $?"
"$DTRACE" -x engine=interp -x metrics=0 -x metricslabels=c:x,y \
    -n 'BEGIN { @c[1] = count(); exit(0); }'

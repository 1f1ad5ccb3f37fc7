# With no arguments at all, dtrace prints the usage and exits 2; with
# options but no program there are no probes to trace (status 1), except
# with -e, which has nothing to compile and succeeds, as DTrace.
"$DTRACE" 2>&1 >/dev/null | sed -n 1,1p
echo "status ${PIPESTATUS[0]}"
"$DTRACE" -q 2>&1 >/dev/null
echo "status $?"
"$DTRACE" -q -e 2>&1 >/dev/null
echo "status $?"
"$DTRACE" -e -x nosuchoption 2>&1 >/dev/null
echo "status $?"

# With nothing to do, dtrace prints the usage and exits 2.
"$DTRACE" -q 2>&1 >/dev/null | sed -n 1,1p
echo "status ${PIPESTATUS[0]}"

# A description that matches nothing is DTrace's compile error, exit 1.
"$DTRACE" -l -n 'nosuchprovider:::entry'

# SPDX-License-Identifier: MIT
# -x tregs bounds the keys of a tuple (aggregation or associative array
# keys): more keys than tuple registers cannot be compiled.  0 registers
# is not a value.
for n in 3 7; do
	"$DTRACE" -x tregs=$n -q -n 'BEGIN { @[1, 2, 3, 4, 5, 6, 7] = count();
	    exit(0); }'
	echo "status $?"
done
"$DTRACE" -x tregs=3 -e -n 'BEGIN { a[1, 2, 3, 4] = 1; }'
"$DTRACE" -x tregs=0 -n BEGIN

# SPDX-License-Identifier: MIT
# Options that steer reading a program (the preprocessor's, the linker's,
# lockmem) cannot be set by the program's own #pragma.
for opt in define=X=1 incdir=/tmp undef=X cpppath=/bin/cpp cpphdrs \
    stdc=a ldpath=/bin/ld lockmem=1m; do
	printf '#pragma D option %s\nBEGIN { exit(0); }\n' "$opt" |
	    "$DTRACE" -q -s /dev/stdin
done
# From the command line they are accepted.
"$DTRACE" -q -x lockmem=4m -x ldpath=/bin/ld -n 'BEGIN { exit(0); }'
echo "status $?"

# SPDX-License-Identifier: MIT
# A program from -n has no lines to name: an error found in cooking a
# clause says where, "in predicate:" or "in action list:", as DTrace's
# do; an aggregation redefined names the line of its first definition
# (1 in a one-line program); from a file, lines as before.
"$DTRACE" -e -n 'BEGIN { trace(nosuch); }'
"$DTRACE" -e -n 'BEGIN /nosuch/ { trace(1); }'
"$DTRACE" -e -n 'BEGIN /"a"/ { trace(1); }'
"$DTRACE" -e -n 'BEGIN { @a = count(); }' -n 'END { @a = sum(1); }'
"$DTRACE" -e -n 'BEGIN { trace(1 +); }'
tmp=$(mktemp -d)
printf 'BEGIN\n{\n\t@a = count();\n\t@a = sum(1);\n}\n' >"$tmp/r.d"
"$DTRACE" -e -s "$tmp/r.d" 2>&1 | sed "s|$tmp/||"
rm -rf "$tmp"
# A probe ID followed by '-': the ID, then another description (-2), as
# DTrace lexes it; digits running into a name stay a name.
"$DTRACE" -li 2-2
"$DTRACE" -i 4-2
"$DTRACE" -li '2:::'
# Operands: only the last must be referenced ($3 says $1 and $2 are
# there), and it is the one named.
"$DTRACE" -i 1 2 3 4
"$DTRACE" -q -n 'BEGIN { printf("%s\n", $$2); exit(0); }' a b
"$DTRACE" -q -n 'BEGIN { printf("%s\n", $$1); exit(0); }' a b

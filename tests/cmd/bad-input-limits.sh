# SPDX-License-Identifier: MIT
# Bad input gets one line naming the real cause: a script past 64 MB
# (-s /dev/zero reads no further), a string size past DIF's 1 MB limit
# (from -x or a pragma), a #line number past an int, output that cannot
# be written (-o /dev/full), a malformed -x version.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
"$DTRACE" -s /dev/zero
echo "status $?"
"$DTRACE" -x strsize=99999999 -n 'BEGIN { exit(0); }'
echo "status $?"
"$DTRACE" -x strsize=4g -n 'BEGIN { exit(0); }'
echo "status $?"
"$DTRACE" -x jstackstrsize=2m -n 'BEGIN { exit(0); }'
echo "status $?"
printf '#pragma D option strsize=2m\nBEGIN { exit(0); }\n' >s.d
"$DTRACE" -s s.d
echo "status $?"
printf 'BEGIN {\n#line 99999999999999999999\n}\n' >l.d
"$DTRACE" -e -s l.d
echo "status $?"
printf '#line 2147483647\nBEGIN { }\n' >l2.d
"$DTRACE" -e -s l2.d
echo "status $?"
printf '#line 2147483646\nBEGIN { x = ; }\n' >l3.d
"$DTRACE" -e -s l3.d
echo "status $?"
"$DTRACE" -x engine=interp -q -o /dev/full -n 'BEGIN { trace(1); exit(0); }'
echo "status $?"
"$DTRACE" -x engine=interp -q -n 'BEGIN { trace(1); exit(0); }' >/dev/full
echo "status $?"
"$DTRACE" -x version=abc -n 'BEGIN { exit(0); }'
echo "status $?"
"$DTRACE" -s /nonexistent.d

# SPDX-License-Identifier: MIT
# A description that starts with a digit is a probe ID: -i and -n take
# one (2 is dtrace:::END); an unknown ID is an error; -P, -m and -f refuse
# an ID; -i's argument is otherwise an ordinary probe name.
"$DTRACE" -li 2
"$DTRACE" -ln 2
"$DTRACE" -i 0-2
echo "status $?"
"$DTRACE" -f 4.56
echo "status $?"
"$DTRACE" -m 7
echo "status $?"
"$DTRACE" -i 99999999999999999999
echo "status $?"
"$DTRACE" -i i23
echo "status $?"
# An empty leading field beyond -f's three is ignored, as in DTrace.
"$DTRACE" -f :nosuchmod::
# Digits running on into a name are a name (Linux has modules "9p",
# "8021q"), not an ID.
"$DTRACE" -l -m 9nosuchmod

# SPDX-License-Identifier: MIT
# A program that matches no probe (an empty script, allowed by -x empty)
# has nothing to trace: DTrace says so and exits 1; with -Z it may trace
# nothing, and -e only compiles.
dir=$(mktemp -d)
: > "$dir/empty.d"
cd "$dir" || exit 1
"$DTRACE" -x empty -s empty.d
echo "status $?"
"$DTRACE" -x empty -e -s empty.d
echo "status $?"
rm -rf "$dir"

# SPDX-License-Identifier: MIT
# -x verbose prints the compiled DIF, as -S does.
dir=$(mktemp -d)
"$DTRACE" -S -e -n 'BEGIN { exit(3); }' > "$dir/s" 2>&1
"$DTRACE" -x verbose -e -n 'BEGIN { exit(3); }' > "$dir/v" 2>&1
cmp "$dir/s" "$dir/v" && grep -c 'DT_INTEGER' "$dir/v"
rm -rf "$dir"

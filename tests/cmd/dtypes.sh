# SPDX-License-Identifier: MIT
# -x dtypes writes the D types (intrinsics and those the program declares)
# as a CTF dictionary when dtrace exits; a file that cannot be created is
# an error of the option.
dir=$(mktemp -d)
"$DTRACE" -x dtypes="$dir/d.ctf" -q -s /dev/stdin <<'D'
struct dtypes_probe { int dp_a; long dp_b; };
BEGIN { exit(0); }
D
echo "status $?"
od -An -tx1 -N2 "$dir/d.ctf"	# the CTF magic, 0xdff2 little-endian
grep -c dtypes_probe "$dir/d.ctf"
"$DTRACE" -x dtypes=/nonexistent/dir/d.ctf -n BEGIN
rm -rf "$dir"

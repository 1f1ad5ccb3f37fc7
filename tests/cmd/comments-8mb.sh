# SPDX-License-Identifier: MIT
# A script of 8 MB of comments, 250,000 of them, inside a clause and
# between clauses, compiles: comment scanning is linear in the script's
# size.  The limit is generous (a few seconds in the sanitizer build CI
# runs, where a scan that restarted at each comment took many minutes),
# so that only the order of growth, not a busy machine, can fail it.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
{
	echo 'BEGIN'
	echo '{'
	yes '	/* a comment inside a clause */' |
	    head -n 125000
	echo '	exit(0);'
	echo '}'
	yes '/* a comment between clauses */' |
	    head -n 125000
	echo 'END { }'
} >c.d
echo "$(($(wc -c <c.d) / 1000000)) MB"
timeout 30 "$DTRACE" -e -s c.d
echo "status $?"

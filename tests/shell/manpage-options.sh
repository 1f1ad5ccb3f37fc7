#!/bin/bash
# SPDX-License-Identifier: MIT
# manpage-options.sh: cmd/dtrace.1 documents what dtrace takes, so that
# an option added without its documentation fails here:
#   - every -x option of common/dt_options.c's table has an entry of its
#     own in OPTION VALUES, and every entry there is an option;
#   - every option letter of dtrace.c's getopt string has an entry in
#     OPTIONS;
#   - every provider `dtrace -l` lists is named in the heading of a
#     section about providers;
#   - groff and man find nothing to warn of;
#   - the page points to no file a package of dtrace does not ship: no
#     path of the source tree, and each file of FILES under /usr/sbin,
#     /usr/bin, /usr/include or /usr/share is in debian/*.install or
#     debian/*.links.
set -u

: "${top_srcdir:?}"
page=$top_srcdir/cmd/dtrace.1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# The text of section $1 (from its .SH line to the next).
section() {
	awk -v h=".SH $1" '$0 == h { on = 1; next } /^\.SH / { on = 0 } on' "$page"
}

# The names an entry's tag line (the line after .TP) gives:
# ".BI aggrate= time" -> aggrate; ".BR kdefs \", \" knodefs" -> kdefs knodefs;
# ".BR engine = auto | bpf" -> engine.
tags() {
	awk 'prev == ".TP" { print } { prev = $0 }' |
	sed -E 's/^\.BR ([a-z]+) ", " ([a-z]+)$/\1\n\2/' |
	sed -E 's/^\.[BI][RI]? //; s/^"//; s/[ ="].*//'
}

# -x options: the table and OPTION VALUES, both ways.
grep -oE '^\s*\{ "[a-z]+", DT_OPT_' "$top_srcdir/common/dt_options.c" |
	sed -E 's/.*"([a-z]+)".*/\1/' | sort -u >"$tmp/xwant"
[ -s "$tmp/xwant" ] || { echo "FAIL: no options read from dt_options.c"; exit 1; }
section 'OPTION VALUES' | tags | sort -u >"$tmp/xgot"
comm -23 "$tmp/xwant" "$tmp/xgot" >"$tmp/undoc"
comm -13 "$tmp/xwant" "$tmp/xgot" >"$tmp/stale"
if [ -s "$tmp/undoc" ]; then
	echo "FAIL: -x options without an entry in OPTION VALUES of dtrace.1:"
	sed 's/^/  /' "$tmp/undoc"
	fail=1
fi
if [ -s "$tmp/stale" ]; then
	echo "FAIL: OPTION VALUES entries that are no option of dt_options.c:"
	sed 's/^/  /' "$tmp/stale"
	fail=1
fi
echo "$(wc -l <"$tmp/xwant") -x options in the table, $(wc -l <"$tmp/xgot") entries"

# Option letters: DTRACE_OPTSTR's, each with an entry in OPTIONS
# (".B \-q", ".BI \-b \" bufsz\"", ".BR \-32 \", \" \-64").
optstr=$(sed -n 's/^#define DTRACE_OPTSTR "\(.*\)"$/\1/p' "$top_srcdir/cmd/dtrace.c")
[ -n "$optstr" ] || { echo "FAIL: no DTRACE_OPTSTR in dtrace.c"; exit 1; }
section OPTIONS | awk 'prev == ".TP" { print } { prev = $0 }' >"$tmp/otags"
for c in $(tr -d ':' <<<"$optstr" | sed 's/[36]//g' | fold -w 1) 32 64; do
	grep -qE "^\.B[IR]? \"?\\\\-$c( |\"|$)" "$tmp/otags" ||
	    grep -qE "^\.BR \\\\-[0-9]+ \", \" \\\\-$c$" "$tmp/otags" ||
		{ echo "FAIL: option -$c has no entry in OPTIONS"; fail=1; }
done

# Providers: each one dtrace -l lists (not those of a process, pidN
# and USDT providers, made on demand) is named in a provider section's
# heading.
grep -E '^\.SH THE .*PROVIDERS?$' "$page" | tr 'A-Z' 'a-z' >"$tmp/heads"
if "$DTRACE" -l >"$tmp/list" 2>/dev/null && [ -s "$tmp/list" ]; then
	for p in $(awk 'NR > 1 && $2 !~ /[0-9]$/ { print $2 }' "$tmp/list" | sort -u); do
		grep -qw -- "$p" "$tmp/heads" ||
			{ echo "FAIL: provider $p has no section in dtrace.1"; fail=1; }
	done
else
	echo "(dtrace -l lists nothing here: providers not checked)"
fi

# Sections a user reaches for.
for s in EXAMPLES FILES 'EXIT STATUS' 'SEE ALSO'; do
	grep -qx "\.SH $s" "$page" || { echo "FAIL: no $s section"; fail=1; }
done
[ "$(section EXAMPLES | grep -c '^dtrace ')" -ge 8 ] ||
	{ echo "FAIL: EXAMPLES has fewer than 8 dtrace command lines"; fail=1; }

# The formatters: no warning.
if command -v groff >/dev/null; then
	groff -ww -z -man "$page" >"$tmp/groff" 2>&1
	[ -s "$tmp/groff" ] && { echo "FAIL: groff -ww warns:"; cat "$tmp/groff"; fail=1; }
else
	echo "(no groff: its warnings not checked)"
fi
if command -v man >/dev/null; then
	MANWIDTH=80 man --warnings -l "$page" 2>"$tmp/man" >/dev/null
	[ -s "$tmp/man" ] && { echo "FAIL: man --warnings warns:"; cat "$tmp/man"; fail=1; }
else
	echo "(no man: its warnings not checked)"
fi

# Files: none of the source tree; those of FILES in the packages.
if grep -nE '(^|[^a-z/])(docs|tests|common|os|cmd)/[a-z]' "$page" >"$tmp/src"; then
	echo "FAIL: dtrace.1 points to files of the source tree, which no package ships:"
	cat "$tmp/src"
	fail=1
fi
cat "$top_srcdir"/debian/*.install >"$tmp/shipped"
awk '{ print $1; print $2 }' "$top_srcdir"/debian/*.links >>"$tmp/shipped"
section FILES | awk 'prev == ".TP" { print } { prev = $0 }' |
    sed -nE 's/^\.IR? (\/usr\/(sbin|bin|include|share)\/[^ ]*).*/\1/p' |
    sed 's/\\-/-/g' >"$tmp/files"
[ -s "$tmp/files" ] || { echo "FAIL: FILES names no installed file"; fail=1; }
while read -r f; do
	grep -qxF "${f#/}" "$tmp/shipped" ||
		{ echo "FAIL: FILES names $f, which no debian/*.install ships"; fail=1; }
done <"$tmp/files"
exit $fail

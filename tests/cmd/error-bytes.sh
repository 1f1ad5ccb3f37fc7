# SPDX-License-Identifier: MIT
# A compile error quotes the script's text safely and whole: a NUL, other
# control bytes and bytes that are not UTF-8 are escaped as C writes them
# (\0, \x1b, \xff), a well-formed UTF-8 character is kept, and the
# message's own layout (its newlines and tabs) is untouched.  So do
# dtrace(1)'s own messages quoting a probe description or a file name.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
t() {
	printf "$2" >"$1.d"
	"$DTRACE" -e -s "$1.d"
	echo "status $?"
}
t nul 'BEGIN { x = 1; \0 }\n'
t nuls 'BEGIN { x = 1\0\0\0; }\n'
t ctl 'BEGIN { x = 1; }\n\001'
t del 'BEGIN { x = 1; \177 }\n'
t badutf8 'BEGIN { x = 1 \377\376; }\n'
t truncutf8 'BEGIN { x = 1 \303; }\n'
t utf8 'BEGIN { x = 1 \303\251; }\n'
t string 'BEGIN { x = 1 "ab\0c\377d\033[31m"; }\n'
t format 'BEGIN { printf("%%\377\001"); }\n'
t pragma '#pragma D option strsize=1\377\002\nBEGIN { exit(0); }\n'
t layout 'BEGIN { x = strlen(1); y = "\377"; }\n'
printf '#line 3 "f\033\376.d"\nBEGIN { x = ; }\n' >line.d
"$DTRACE" -x errtags -e -s line.d
echo "status $?"
"$DTRACE" -e -n "$(printf 'foo\033[31m:bar\377:::')"
echo "status $?"
"$DTRACE" -e -s "$(printf 'no\001such\377.d')"
echo "status $?"

# SPDX-License-Identifier: MIT
# -x noresolve prints user addresses as object:offset, symbols unresolved;
# without it the same frames are object`symbol+offset.  (A pid probe:
# its registers are the uprobe's, on every kernel.)
# @requires: os:linux
frames() {
	"$DTRACE" -q "$@" -n 'pid$target::write:entry {
	    ustack(); @[usym(uregs[R_PC])] = count(); exit(0); }' \
	    -c '/bin/echo hi' 2>/dev/null | grep 'libc'
}
pat='^ *libc\.so\.[0-9]*:0x[0-9a-f]* *[0-9]*$'
out=$(frames -x noresolve)
echo "$out" | grep -c "$pat" | sed 's/^[1-9][0-9]*$/object:offset frames/'
echo "$out" | grep -vc "$pat"
frames | grep -c 'libc\.so\.[0-9]*`' | sed 's/^[1-9][0-9]*$/resolved frames/'

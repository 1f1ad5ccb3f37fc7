# SPDX-License-Identifier: MIT
# maxframes caps the frames of every stack, stack()'s default and an
# explicit stack(n) alike: a system call's kernel stack has at least three
# frames (the syscall entry and the dispatcher), so capped at 2 it has 2.
# More than one CPU may fire before exit(), so the longest stack counts.
# @requires: os:linux
for prog in 'syscall:::entry{stack(); exit(0)}' \
    'syscall:::entry{stack(10); exit(0)}'; do
	"$DTRACE" -x maxframes=2 -qn "$prog" |
	    awk 'NF { n++; if (n > max) max = n; next } { n = 0 }
		END { print max }'
done

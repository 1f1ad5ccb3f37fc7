# SPDX-License-Identifier: MIT
# A description that names a process's probe exactly and matches none
# says why, with DTrace's error tags: no valid process ID, a function the
# module lacks, a name that is neither entry, return nor an offset, an
# offset past the function's end, "-" without one address.  A module no
# object has is an ordinary no-match.
# @requires: os:linux
for d in 'pid0:::entry' 'pid$target:libc:no_such_function:entry' \
    'pid$target:libc:_exit:beginning' 'pid$target:libc:_exit:fffff' \
    'pid$target::_exit:fffff' 'pid$target::-:' 'pid$target::-:10*' \
    'pid$target:no_such_module:_exit:entry'; do
	"$DTRACE" -x errtags -q -c /bin/true -n "$d { exit(0); }" 2>&1 |
	    sed 's/pid[1-9][0-9]*/pidN/g'
done

# SPDX-License-Identifier: MIT
# @requires: os:linux root
# fds[] (io.d's inline with an index) from a -n one-liner, which compiles
# the D libraries only when it names something they declare: the scan
# of their declarations must see "fds", not its index "fd".
f=$PWD/fds-oneliner.txt
echo hello >"$f"
"$DTRACE" -q -n 'syscall::read:entry /pid == $target && fds[arg0].fi_name == "fds-oneliner.txt"/ {
	printf("%s %s\n", fds[arg0].fi_name, fds[arg0].fi_dirname == dirname("'"$f"'") ? "ok" : fds[arg0].fi_dirname);
	exit(0);
}' -c "cat $f" | grep -v '^hello$'

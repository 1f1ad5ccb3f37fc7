#!/bin/bash
# SPDX-License-Identifier: MIT
# fds-paths.sh: fds[]'s paths are whole, as DTrace's are: a file 14
# directories deep (fi_pathname, fi_dirname, fi_name), one on a mount of
# its own (/dev/shm: fi_mount is its mount point), one deeper than the
# walk keeps (its deepest names after "/..."), and one cut at strsize;
# and fi_oflags against io.d's O_* names for a file opened for appending.
set -u

if [ "$(id -u)" -ne 0 ]; then
	echo "not root: fds[] reads kernel memory on the bpf engine only"
	exit 77
fi
tmp=$(mktemp -d)
shm=$(mktemp -d /dev/shm/dtfds.XXXXXX 2>/dev/null) || shm=
trap 'rm -rf "$tmp" ${shm:+"$shm"}' EXIT
rc=0

check() {	# check WHAT WANT GOT
	if [ "$2" != "$3" ]; then
		echo "FAIL: $1: want [$2], got [$3]"
		rc=1
	fi
}

# The path of the file the traced cat reads (its name is "f"), with
# its directory, name and mount; extra dtrace options first.
paths() {
	"$DTRACE" -q -x engine=bpf "$@" -c "cat $file" -n '
	    syscall::read:entry
	    /pid == $target && fds[arg0].fi_name == "f"/
	    {
		printf("%s|%s|%s|%s\n", fds[arg0].fi_pathname,
		    fds[arg0].fi_dirname, fds[arg0].fi_name,
		    fds[arg0].fi_mount);
		exit(0);
	    }' 2>&1 | grep -v '^x$'
}

dir=$(cd "$tmp" && pwd -P)
for i in $(seq 1 14); do dir=$dir/d$i; done
mkdir -p "$dir" && echo x >"$dir/f"
file=$dir/f
mnt=$(df -P "$dir" | awk 'NR == 2 { print $6 }')
check "14 directories deep" "$file|$dir|f|$mnt" "$(paths)"

if [ -n "$shm" ]; then
	mkdir -p "$shm/a/b" && echo x >"$shm/a/b/f"
	file=$shm/a/b/f
	check "on /dev/shm" "$file|$shm/a/b|f|/dev/shm" "$(paths)"
fi

# Deeper than the walk's 32 names: the deepest 32 after "/...".
dir=$tmp
for i in $(seq 1 40); do dir=$dir/e$i; done
mkdir -p "$dir" && echo x >"$dir/f"
file=$dir/f
want=/...
for i in $(seq 10 40); do want=$want/e$i; done
check "40 directories deep" "$want/f" \
    "$(paths -x strsize=512 | cut -d'|' -f1)"

# Cut to strsize - 1 bytes.
file=$dir/f
check "strsize=16" "/.../e10/e11/e1" "$(paths -x strsize=16 | cut -d'|' -f1)"

# fi_oflags: the shell opens the log with O_WRONLY|O_APPEND|O_CREAT (and
# writes to it through a copy of the descriptor); the kernel keeps the
# first two, and a 64-bit one adds O_LARGEFILE.
printf 'exec 3>>%s/log\necho y >&3\n' "$tmp" >"$tmp/append.sh"
got=$("$DTRACE" -q -x engine=bpf -c "sh $tmp/append.sh" \
    -n 'syscall::write:entry
	/pid == $target && fds[arg0].fi_name == "log"/ {
	this->f = fds[arg0].fi_oflags;
	printf("%d %d %d %d %d\n", (this->f & O_ACCMODE) == O_WRONLY,
	    (this->f & O_APPEND) != 0, (this->f & O_CREAT) != 0,
	    (this->f & O_LARGEFILE) != 0,
	    (this->f & (O_NONBLOCK | O_SYNC | O_DIRECT)) != 0);
	exit(0); }' 2>&1)
check "fi_oflags" "1 1 0 1 0" "$got"
exit $rc

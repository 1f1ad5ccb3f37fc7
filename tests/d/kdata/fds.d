/*
 * fds[] gives the current process's file descriptors as fileinfo_t: cat
 * reads its standard input, /dev/null.  A descriptor that is not open is
 * "<none>".
 * @options: -q -c /bin/cat
 * @requires: root
 * @engines: bpf
 */
syscall::read:entry
/pid == $target && arg0 == 0/
{
	printf("%s %s %s %d %d\n", fds[arg0].fi_name, fds[arg0].fi_dirname,
	    fds[arg0].fi_pathname, fds[arg0].fi_offset,
	    fds[arg0].fi_oflags & 3);
	printf("%s %s %s %d\n", fds[-1].fi_name, fds[9999].fi_mount,
	    fds[12345678].fi_fs, fds[-1].fi_oflags);
	exit(0);
}
/* SPDX-License-Identifier: MIT */

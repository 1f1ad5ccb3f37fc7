/*
 * d_path() of a struct path: cat's standard input, /dev/null, whose path
 * crosses the /dev mount; with a second argument, the mount point of its
 * mount; a file at the root of its mount is that mount point; and "/".
 * @options: -q -c /bin/cat
 * @requires: root
 * @engines: bpf
 */
syscall::read:entry
/pid == $target && arg0 == 0/
{
	this->p = &curthread->files->fdt->fd[0]->f_path;
	printf("%s %s %s\n", d_path(this->p), d_path(this->p, 1),
	    d_path(this->p, 0));
	printf("%s %s\n", d_path(&curthread->fs->root),
	    d_path(&curthread->fs->root, 1));
	exit(0);
}
/* SPDX-License-Identifier: MIT */

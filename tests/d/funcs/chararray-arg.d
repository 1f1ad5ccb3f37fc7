/*
 * A char array passes where a subroutine takes char * (DTrace promotes
 * it to a string): the kernel's task name, and a D one.
 * @options: -e
 * @requires: btf os:linux
 */
char name[16];

BEGIN
{
	a = strjoin(curthread->comm, "!");
	b = basename(name);
	c = strchr(curthread->comm, 'r');
	d = index(name, "t");
}
/* SPDX-License-Identifier: MIT */

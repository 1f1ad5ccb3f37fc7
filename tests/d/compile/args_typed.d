/*
 * Args[N] has the type of the probe's argument N: a const char * takes
 * stringof() and, cast as DTrace requires, copyinstr(); an int compares
 * signed; a return probe's args[0] is its long.
 * @options: -e
 * @requires: root os:linux
 */
syscall::openat:entry
/args[0] == -100 && args[2] >= 0/
{
	printf("%s %s\n", stringof(args[1]), copyinstr((uintptr_t)args[1]));
	this->p = args[1];
	this->p = "const char * accepts a string";
}

syscall::openat:return
/args[0] < 0/
{
	this->l = args[0];
}

syscall::execve:entry
{
	this->argv = args[1];
	this->arg1 = args[1][1];
}
/* SPDX-License-Identifier: MIT */

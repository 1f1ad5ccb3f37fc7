/*
 * copyinto() copies user memory into alloca()ed scratch on the bpf
 * engine as on the interpreter: the bytes whoami writes.  A destination
 * past the allocation faults.  (whoami's own line comes first: END runs
 * after it has exited.)
 * @options: -q -c /usr/bin/whoami
 * @engines: bpf
 * @requires: root
 * @status: 0
 */
syscall::write:entry
/pid == $target/
{
	p = (char *)alloca(5);
	copyinto(arg1, 4, p);
	s = stringof(p);
	copyinto(arg1, 4, p + 2);
}

ERROR
{
	f = arg4;
	at = (int64_t)(arg5 - (uint64_t)p);
}

END
{
	printf("copied \"%s\"; fault %d at p%+d\n", s, f, at);
}
/* SPDX-License-Identifier: MIT */

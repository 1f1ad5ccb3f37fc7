/*
 * print() of kernel types imported from BTF: a struct with pointer
 * members, a kernel char array holding a string, a typedef'd integer.
 * @requires: btf
 * @engines: bpf
 * @options: -q
 */
BEGIN
{
	l = (struct list_head *)alloca(sizeof (struct list_head));
	l->next = (struct list_head *)0x10;
	print(*l);
	printf("\n");
	print(curthread->comm);
	print((pid_t)42);
	exit(0);
}
/* SPDX-License-Identifier: MIT */

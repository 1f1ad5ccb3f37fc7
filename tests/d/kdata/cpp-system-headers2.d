/*
 * More of C's headers through -C: a struct's flexible last member
 * (cmsghdr's __cmsg_data[]) is an array of no elements, an array
 * parameter of a prototype (unistd.h's execv) is a pointer, a typedef
 * that names the kernel's type of that name after integer keywords
 * (asm/posix_types.h) declares it, and the kernel's headers' __signed__
 * and attributes mean nothing more.
 * @options: -q -C
 */
#include <sys/socket.h>
#include <unistd.h>
#include <stdlib.h>
#include <linux/types.h>

struct flex {
	int n;
	char data[];
};

BEGIN
{
	printf("%d %d %d\n", sizeof (struct cmsghdr),
	    offsetof(struct cmsghdr, __cmsg_data), AF_INET6);
	printf("%d %d %d\n", sizeof (__s8), sizeof (__kernel_old_uid_t),
	    sizeof (struct flex));
	exit(0);
}
/* SPDX-License-Identifier: MIT */

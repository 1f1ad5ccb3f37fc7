/*
 * With -C, system headers go through the preprocessor in a form D
 * parses: <errno.h> gives its E* macros (its declarations carry no GCC
 * attributes), <endian.h> its byte-order macros (its inline functions are
 * left out) and <sys/types.h> typedefs D has already, of the same size.
 * errno, which glibc makes a macro for a C function, stays D's variable.
 * @options: -q -C
 */
#include <sys/errno.h>
#include <endian.h>
#include <sys/types.h>

BEGIN
{
	printf("%d %d %d %d\n", ENOENT, EINTR, EAGAIN, errno);
#if __BYTE_ORDER == __LITTLE_ENDIAN
	printf("%x\n", htonl(0x12345678) == 0x78563412);
#else
	printf("%x\n", htonl(0x12345678) == 0x12345678);
#endif
	exit(0);
}
/* SPDX-License-Identifier: MIT */

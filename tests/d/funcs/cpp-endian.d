/*
 * With -C the C library's headers are usable: <endian.h> gives its byte
 * order macros, without the inline functions D cannot parse, and
 * htons()/htonl()/htonll() swap as it says they must.
 * @options: -q -C
 */
#include <endian.h>

BEGIN
{
#if __BYTE_ORDER == __LITTLE_ENDIAN
	printf("%s\n", htons(0x1122) == 0x2211 && htonl(0x11223344) ==
	    0x44332211 && htonll(0x1122334455667788) == 0x8877665544332211 ?
	    "swapped" : "wrong");
#else
	printf("%s\n", htons(0x1122) == 0x1122 ? "swapped" : "wrong");
#endif
	exit(0);
}
/* SPDX-License-Identifier: MIT */

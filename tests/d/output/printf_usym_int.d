/*
 * Printf() integer conversions of usym(), umod() and uaddr() values print
 * the address, as they do for sym(): the record's pid is not the number.
 * @options: -q
 */
BEGIN
{
	printf("%x|%d|%p|%u\n", usym(0x1234), sym(0x10), umod(0x99),
	    uaddr(7));
	exit(0);
}
/* SPDX-License-Identifier: MIT */

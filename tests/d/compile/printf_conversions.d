/*
 * Printf() with every conversion.
 * @options: -e
 */
BEGIN
{
	printf("%d %i %u %x %X %o %c %s %p %% %5d %-5s %05x %lld %hd %lu\n", 1, 2, 3, 4, 5, 6, 'a', "s", curthread, 7, "t", 8, 9LL, (short)10, 11UL);
	printf("%a %A %Y %S %*d %.*s\n", caller, uaddr(ucaller), walltimestamp, "x", 5, 1, 3, "abc");
	printf("%k\n", stack());
}
/* SPDX-License-Identifier: MIT */

/* SPDX-License-Identifier: MIT */
/*
 * Size prefixes on values of their own types: %hhd and %hd of char and
 * short values, signed and not, print them as C would.
 * @options: -q
 */
BEGIN
{
	i = 0x12345fe;
	printf("%hhd %hhu %hhx\n", (char)i, (unsigned char)i, (char)i);
	printf("%hd %hu %hx %hX\n", (short)i, (ushort_t)i, (short)i, (short)i);
	printf("%ld %lu %7777777777777777777777777777777777777777777777777777777lld %llx\n", (long)-i, (ulong_t)i, (long long)i,
	    (long long)i);
	printf("%d %u\n", (char)i, (char)i);
	exit(0);
}

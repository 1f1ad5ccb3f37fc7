/*
 * Integer arithmetic is done in 64-bit registers, as in DTrace: an int
 * expression is cut to 32 bits only where it is stored (to a variable or
 * memory), cast, or recorded.
 * @options: -q
 */
BEGIN
{
	i = 100000;
	j = 100000;
	/* The product does not fit an int, but the quotient does. */
	printf("%d\n", i * j / 1000);
	/* Stored, it is cut to the int the variable is. */
	k = i;
	k = i * j;
	printf("%d %d\n", k, k / 1000);
	/* Recorded, it is cut too. */
	printf("%d\n", i * j);
	printf("%d\n", (long)i * j);
	k++;
	printf("%d\n", k);
	exit(0);
}
/* SPDX-License-Identifier: MIT */

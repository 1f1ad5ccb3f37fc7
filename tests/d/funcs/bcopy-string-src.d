/*
 * A D string is an array of char, so it may be passed where a subroutine
 * takes a void pointer: bcopy() from a string constant and from a string
 * variable into alloca()ed memory.
 * @options: -q
 */
BEGIN
{
	s = "variable";
	p = (char *)alloca(16);
	bcopy("constant", p, 9);
	printf("%s\n", stringof(p));
	bcopy(s, p, 9);
	printf("%s\n", stringof(p));
	exit(0);
}
/* SPDX-License-Identifier: MIT */

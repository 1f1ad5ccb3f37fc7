/*
 * D does not promote char and short to int: the result of an operation
 * has its wider operand's type (the unsigned one at equal width), so it
 * is recorded at that width.
 * @options: -q
 */
unsigned char C;
signed char c;
unsigned short S;
short s;

BEGIN
{
	C = 254;
	c = 3;
	S = 65535;
	s = 2;
	printf("%d %d %d %d\n", C + c, C + C, S + s, s - S);
	printf("%d %d\n", c * c * c * c * c, C + 2 == 0);
	exit(0);
}
/* SPDX-License-Identifier: MIT */

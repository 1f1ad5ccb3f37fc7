/*
 * Bit-fields can be assigned: the value is cut to the field's width and
 * its neighbours keep theirs; a signed field reads back sign-extended.
 * @options: -q
 */
struct bits {
	unsigned int a : 3;
	int b : 5;
	unsigned long c : 35;
	unsigned int d : 8;
} v;

BEGIN
{
	v.a = 7;
	v.b = -3;
	v.c = 0x7ffffffff;
	v.d = 0x1ff;
	printf("%d %d %d %d\n", v.a, v.b, v.c, v.d);
	v.a = 9;
	v.b = 16;
	v.c += 1;
	v.d--;
	printf("%d %d %d %d\n", v.a, v.b, v.c, v.d);
	this->p = (struct bits *)alloca(sizeof (struct bits));
	this->p->b = 15;
	this->p->d = 200;
	printf("%d %d\n", this->p->b, this->p->d);
	exit(0);
}
/* SPDX-License-Identifier: MIT */

/*
 * Structs declared in D are laid out as DTrace lays them out: a member
 * starts at the first byte after the one before, aligned; a bit-field
 * takes the smallest power-of-two number of bytes that holds it, so
 * bit-fields are not packed together; nothing pads the end.
 * @options: -q
 */
struct b1 { int a : 1; };
struct b2 { int a : 1; int b : 3; };
struct b5 { int c : 12; int a : 10; int b : 3; };
struct b7 { long c : 32; long long d : 9; int e : 1; };
struct b12 { int a : 30; int b : 30; int c : 32; };
struct s { long x; char c; };
struct t { char c; int i; short h; };
union u { char c; long l; int b : 20; };

BEGIN
{
	printf("%d %d %d %d %d\n", sizeof (struct b1), sizeof (struct b2),
	    sizeof (struct b5), sizeof (struct b7), sizeof (struct b12));
	printf("%d %d %d %d %d\n", sizeof (struct s), sizeof (struct t),
	    offsetof(struct t, i), offsetof(struct t, h), sizeof (union u));
	exit(0);
}
/* SPDX-License-Identifier: MIT */

/*
 * print() shows a value with its type, as DTrace does: each member on a
 * line with its type and name, integers and pointers in hex, chars
 * quoted, enums by name, bit-fields with their width, char arrays
 * holding a string as one, other arrays inline, nested structs and
 * arrays of structs as indented blocks.  A top-level scalar is "type
 * value" and a newline; a struct ends at its closing brace.
 * @options: -q
 */
struct bar {
	long x;
	char c;
};

struct bits {
	unsigned int lo :3;
	unsigned int hi :5;
};

enum colour { RED, GREEN = 5 };

struct foo {
	int a;
	char name[8];
	struct bar inner;
	struct bits b;
	enum colour e;
	int arr[3];
	struct bar bars[2];
	void *p;
	uint8_t small;
	short neg;
	union {
		int i;
		char bytes[4];
	} u;
};

BEGIN
{
	f = (struct foo *)alloca(sizeof (struct foo));
	f->a = 1;
	f->name[0] = 'a';
	f->name[1] = 'b';
	f->inner.x = -1;
	f->inner.c = 'z';
	f->b.lo = 5;
	f->b.hi = 17;
	f->e = GREEN;
	f->arr[1] = 7;
	f->bars[1].c = 'y';
	f->p = (void *)0x1234;
	f->small = 200;
	f->neg = -2;
	f->u.i = 0x41;
	print(*f);
	printf("\n");
	print(f->inner);
	printf("\n");
	print(f->arr);
	print(1);
	print((char)'q');
	print("hello");
	print(f->e);
	print(f->p);
	exit(0);
}
/* SPDX-License-Identifier: MIT */

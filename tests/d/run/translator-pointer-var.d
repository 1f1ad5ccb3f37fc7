/*
 * Translated pointers: a translator whose input is a plain int, its
 * pointer kept in clause-local, thread-local and global variables (whose
 * members are then translated as args[N]'s are), *p copying the
 * translated struct, and nested expressions around a translated member,
 * whose input waits in a hidden clause-local rather than a register.
 * @options: -q
 */
typedef struct out {
	int o_twice;
	int o_next;
	string o_size;
} out_t;

typedef struct pair {
	int p_twice;
	int p_next;
} pair_t;

translator out_t < int I > {
	o_twice = I * 2;
	o_next = I + 1;
	o_size = I > 9 ? "big" : "small";
};

translator pair_t < int I > {
	p_twice = I * 2;
	p_next = xlate<out_t *>(I)->o_next;
};

BEGIN
{
	x = 21;
	this->t = xlate<out_t *>(x);
	self->t = xlate<out_t *>(3);
	g = xlate<out_t *>(x + 1);
	printf("%d %d %s\n", this->t->o_twice, this->t->o_next,
	    this->t->o_size);
	printf("%d %d %s\n", self->t->o_twice, self->t->o_next,
	    self->t->o_size);
	printf("%d %s\n", g->o_next, g->o_size);
	this->p = xlate<pair_t *>(5);
	this->c = *this->p;
	printf("%d %d\n", this->c.p_twice, this->c.p_next);
	this->s = xlate<pair_t>(7);
	printf("%d %d\n", this->s.p_twice, (*this->p).p_next);
	a = 1;
	b = 2;
	c = 3;
	printf("%d\n", a + (b + (c + (a + (b + xlate<out_t *>(1)->o_next)))));
	printf("%d\n", a + (b + (c + xlate<pair_t *>(x)->p_next)));
	self->t = 0;
	exit(0);
}
/* SPDX-License-Identifier: MIT */

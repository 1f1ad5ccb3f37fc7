/*
 * A pointer member of a translated struct is an ordinary pointer: a
 * member through it is the pointed-to struct's, not the translator's; and
 * the address of a translated member is that of its translated value.
 * @options: -q
 */
struct dt_in {
	int in_a;
	int in_b;
};

struct dt_out {
	int out_x;
	struct dt_in *out_p;
};

translator struct dt_out < struct dt_in *I > {
	out_x = I->in_a * 2;
	out_p = I;
};

BEGIN
{
	this->p = (struct dt_in *)alloca(sizeof (struct dt_in));
	this->p->in_a = 21;
	this->p->in_b = 7;
	printf("%d %d\n", xlate<struct dt_out *>(this->p)->out_p->in_b,
	    xlate<struct dt_out *>(this->p)->out_p->in_a);
	printf("%d\n", *(&xlate<struct dt_out *>(this->p)->out_x));
	exit(0);
}
/* SPDX-License-Identifier: MIT */

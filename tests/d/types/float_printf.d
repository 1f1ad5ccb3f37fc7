/*
 * D has no floating-point arithmetic, but float, double and long double
 * data can be declared, traced and formatted by printf(): a global is
 * zero, and values read through pointers print as the C library does.
 * A long double's bits are the processor's: x87's 80-bit format on
 * x86-64, IEEE binary128 on arm64 (chosen here by the preprocessor).
 * @options: -q -C
 */
float f;
double d;
long double ld;

struct fp {
	float f;
	double d;
	long double ld;
};

BEGIN
{
	printf("%f %e %E %g %G\n", f, f, f, f, f);
	printf("%f %e %E %g %G %Lf\n", d, d, d, d, d, ld);
	this->p = (struct fp *)alloca(sizeof (struct fp));
	this->i = (int *)&this->p->f;
	*this->i = 0x3fc00000;
	this->l = (long *)&this->p->d;
	*this->l = 0xc00921fb54442d18;
	this->w = (long *)&this->p->ld;
#if defined(__aarch64__)
	this->w[0] = 0;				/* 2.0: mantissa 0, */
	this->w[1] = 0x4000000000000000;	/* exponent 0x4000 */
#else
	this->w[0] = 0x8000000000000000;	/* 2.0: the integer bit, */
	this->w[1] = 0x4000;			/* exponent 0x4000 */
#endif
	printf("%f %.2e %g\n", this->p->f, this->p->f, this->p->f);
	printf("%f %.3E %G\n", this->p->d, this->p->d, this->p->d);
	printf("%Lf %Lg\n", this->p->ld, this->p->ld);
	printf("%8.3f|%-8.1f|\n", this->p->f, this->p->d);
	exit(0);
}
/* SPDX-License-Identifier: MIT */

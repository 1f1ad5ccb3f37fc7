/*
 * All dynamic variables share dynvarsize, as DTrace's come from one
 * pool: with room for one element, the first thread-local is stored and
 * another is dropped and counted, whichever variable it is; each drop
 * ends its clause, as in DTrace.  Deleting the one stored (assigning 0)
 * gives its room back, so the next fits.
 * @options: -q
 * @status: 0
 */
#pragma D option dynvarsize=16

self int d;

BEGIN
{
	self->a = 1;
	self->b = 2;
}

BEGIN
{
	self->c = 3;
}

BEGIN
{
	printf("%d %d %d %d\n", self->a, self->b, self->c, self->d);
	self->a = 0;
	self->d = 5;
	printf("%d %d %d %d\n", self->a, self->b, self->c, self->d);
	exit(0);
}
/* SPDX-License-Identifier: MIT */

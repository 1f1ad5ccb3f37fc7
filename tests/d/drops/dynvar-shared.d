/*
 * All dynamic variables share dynvarsize, as DTrace's come from one
 * pool: with room for one element, the first of four thread-locals is
 * stored and the other three are dropped and counted, whichever
 * variables they are.  Deleting the one stored (assigning 0) gives its
 * room back, so the next fits.
 * @options: -q
 * @status: 0
 */
#pragma D option dynvarsize=16

BEGIN
{
	self->a = 1;
	self->b = 2;
	self->c = 3;
	self->d = 4;
	printf("%d %d %d %d\n", self->a, self->b, self->c, self->d);
	self->a = 0;
	self->d = 5;
	printf("%d %d %d %d\n", self->a, self->b, self->c, self->d);
	exit(0);
}
/* SPDX-License-Identifier: MIT */

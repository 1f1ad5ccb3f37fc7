/*
 * A dynvarsize too small for one dynamic variable still holds one, as
 * DTrace raises it to what one takes; reading thread-locals that were
 * never set allocates nothing, so the one stored afterwards fits.
 * @options: -q
 */
#pragma D option dynvarsize=8

self x, y, w;

BEGIN
{
	printf("%d %d ", self->x, self->y);
	self->w = 1234;
	printf("%d\n", self->w);
	exit(0);
}
/* SPDX-License-Identifier: MIT */

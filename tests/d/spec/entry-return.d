/*
 * The classic use: speculate everything a request does from its start,
 * then commit when it ends in error and discard otherwise.  Here each
 * tick is a "request"; every third one fails.
 * @options: -q
 * @requires: feature:atomic_fetch
 */
tick-1ms
/n < 6/
{
	self->spec = speculation();
	n++;
}

tick-1ms
/self->spec/
{
	speculate(self->spec);
	printf("request %d starts\n", n);
}

tick-1ms
/self->spec/
{
	speculate(self->spec);
	printf("request %d %s\n", n, n % 3 == 0 ? "fails" : "works");
}

tick-1ms
/self->spec && n % 3 == 0/
{
	commit(self->spec);
	self->spec = 0;
}

tick-1ms
/self->spec/
{
	discard(self->spec);
	self->spec = 0;
}

tick-1ms
/n == 6/
{
	exit(0);
}
/* SPDX-License-Identifier: MIT */

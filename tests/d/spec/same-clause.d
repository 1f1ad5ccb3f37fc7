/*
 * speculate() may follow speculation() in the same clause: what the
 * clause records then goes to the new speculation, not to the principal
 * buffer, and a discard() leaves nothing of it.
 * @options: -q -x nspec=2
 * @requires: feature:atomic_fetch
 */
BEGIN
{
	s = speculation();
	speculate(s);
	printf("discarded %d\n", s);
}

BEGIN
{
	t = speculation();
	speculate(t);
	printf("committed %d\n", t);
}

BEGIN
{
	printf("principal\n");
}

BEGIN
{
	discard(s);
}

BEGIN
{
	commit(t);
}

BEGIN
{
	exit(0);
}
/* SPDX-License-Identifier: MIT */

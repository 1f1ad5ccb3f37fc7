/*
 * A predicate may create the clause-local and thread-local variables the
 * actions then read: the actions, cooked first, fail on the unknown name,
 * and the clause is cooked again with the predicate first.
 * @options: -q
 */
BEGIN
/this->s = 1/
{
	this->d = this->s + 1;
	printf("%d %d\n", this->s, this->d);
}

BEGIN
/self->t = 5/
{
	printf("%d\n", self->t - 2);
	exit(0);
}
/* SPDX-License-Identifier: MIT */

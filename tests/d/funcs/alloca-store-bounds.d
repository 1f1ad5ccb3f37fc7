/*
 * As in DTrace, stores and bcopy() may write only what the clause has
 * allocated of scratch: inside an alloca()ed block they work, at or
 * across its end they fault (the ERROR clause shows where, from s).
 * @options: -q
 * @status: 0
 */
BEGIN
{
	s = (char *)alloca(15);
	s[14] = 'x';
	bcopy("ab", s, 2);
	printf("%c%c%c\n", s[0], s[1], s[14]);
}

BEGIN
{
	s = (char *)alloca(16);
	s[16] = 1;
	printf("not reached\n");
}

BEGIN
{
	s = (char *)alloca(16);
	bcopy("01", &s[15], 2);
	printf("not reached\n");
}

BEGIN
{
	s = (char *)alloca(16);
	bcopy("01", &s[16], 1);
	printf("not reached\n");
}

BEGIN
{
	s = (char *)alloca(2);
	t = (int *)s;
	*t = 1;
	printf("not reached\n");
}

BEGIN
{
	exit(0);
}

ERROR
{
	printf("fault %d at s%+d\n", arg4, (int64_t)(arg5 - (uint64_t)s));
}
/* SPDX-License-Identifier: MIT */

/*
 * Indexing a NULL string faults at the address it reads.
 * @options: -q
 * @status: 0
 */
string s;

BEGIN
{
	s = NULL;
	trace(s[1]);
}

BEGIN
{
	printf("after\n");
	exit(0);
}
/* SPDX-License-Identifier: MIT */

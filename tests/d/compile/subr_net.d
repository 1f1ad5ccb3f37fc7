/*
 * Network and byte-order subroutines.
 * @options: -e
 */
BEGIN
{
	a = htons(1);
	b = htonl(1);
	c = htonll(1);
	d = ntohs(a);
	e = ntohl(b);
	f = ntohll(c);
	g = inet_ntop(2, alloca(4));
	h = inet_ntoa((void *)arg0);
	i = inet_ntoa6((void *)arg0);
}
/* SPDX-License-Identifier: MIT */

/*
 * inet_ntoa6() takes a struct in6_addr * (DTrace: in6_addr_t *); an int *
 * is not one.
 * @options: -e
 * @requires: os:linux
 */
int *p;

BEGIN
{
	trace(inet_ntoa6(p));
}
/* SPDX-License-Identifier: MIT */

/*
 * inet_ntoa6()'s strict flag must be a constant.
 * @options: -e
 */
BEGIN
{
	n = 1;
	trace(inet_ntoa6((struct in6_addr *)alloca(16), n));
}
/* SPDX-License-Identifier: MIT */

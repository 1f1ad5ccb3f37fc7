/*
 * inet_ntoa6() takes a struct in6_addr * and, as in Oracle Linux DTrace,
 * an optional constant: non-zero writes IPv4-mapped and -compatible
 * addresses in full, as inet_ntop() does; zero, or none, only their
 * IPv4 address.
 * @options: -q
 */
BEGIN
{
	this->a = (uint32_t *)alloca(16);
	this->a[2] = htonl(0xffff);
	this->a[3] = htonl(0x7f000001);
	this->p = (struct in6_addr *)this->a;
	printf("%s %s %s\n", inet_ntoa6(this->p), inet_ntoa6(this->p, 0),
	    inet_ntoa6(this->p, 1));
	exit(0);
}
/* SPDX-License-Identifier: MIT */

/*
 * inet_ntoa(), inet_ntoa6() and inet_ntop() give the same text on both
 * engines: every digit count of an IPv4 byte, IPv6 addresses with the
 * zero run DTrace picks written "::" (at the start, middle and end, a
 * run of one but not a lone zero group at the end, the later of two
 * equal runs when the group after it is below 0x100, none that reaches
 * into a dotted tail), IPv4-mapped and -compatible addresses (dotted
 * tails, or only the IPv4 address from inet_ntoa6()), and the faults of
 * an unknown address family and an unreadable address.  (alloca()
 * memory lasts one clause, so each clause makes its own.)
 * @options: -q -C
 * @status: 0
 */
BEGIN
{
	this->a = (uint64_t *)alloca(16);
	this->b = (uint8_t *)this->a;
	this->b[0] = 192; this->b[1] = 168; this->b[2] = 1; this->b[3] = 20;
	printf("%s %s\n", inet_ntoa((void *)this->a),
	    inet_ntop(2, this->a));
	this->b[0] = 100; this->b[1] = 10; this->b[2] = 0; this->b[3] = 255;
	printf("%s\n", inet_ntoa((void *)this->a));
}

#define V6(hi, lo)							\
	this->a = (uint64_t *)alloca(16);				\
	this->a[0] = htonll(hi); this->a[1] = htonll(lo);		\
	printf("%s %s\n", inet_ntop(10, this->a), inet_ntoa6((void *)this->a))

BEGIN
{
	V6(0, 1);
	V6(0xfe80000000000000, 0x02144ffffe0b76c8);
	V6(0, 0x0000ffff7f000001);
	V6(0, 0x000000000a010203);
	V6(0x0001000200030004, 0x0005000600070000);
	V6(0x0001000000000002, 0x0000000000000003);
	V6(0x0001000000020000, 0x0000000300000000);
	V6(0x20010db800000000, 0x0000ff0000428329);
	V6(0x0001000200030004, 0x0005000600000000);
	V6(0x0000000000000000, 0x0001000200030004);
	V6(0xffffffffffffffff, 0xffffffffffffffff);
	V6(0, 0);
}

BEGIN
{
	trace(inet_ntop(99, alloca(16)));
}

BEGIN
{
	trace(inet_ntoa((void *)8));
}

BEGIN
{
	exit(0);
}

/* (In a probe of its own: one probe's program has room for so many.) */
END
{
	V6(0xfe123456789abcde, 0x02144ffffe0b0000);
	V6(0x0001000200030000, 0x0005000600070008);
	V6(0x0001000000030000, 0x0005000600070008);
	V6(0x0001000000030000, 0x0000000000000008);
	V6(0, 0x0000000000000102);
}
/* SPDX-License-Identifier: MIT */

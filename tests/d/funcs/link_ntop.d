/*
 * link_ntop() (Oracle Linux DTrace's) writes an Ethernet (6 bytes) or
 * InfiniBand (20 bytes) address as two-digit hex bytes joined by ':';
 * another type is an illegal operation, an unreadable address a fault.
 * @options: -q
 * @status: 0
 * @requires: os:linux
 */
BEGIN
{
	this->e = (uint64_t *)alloca(8);
	*this->e = htonll(0x000a0b0cfe01 << 16);
	printf("%s\n", link_ntop(ARPHRD_ETHER, this->e));
	this->i = (uint8_t *)alloca(20);
	this->i[0] = 0x80;
	this->i[7] = 0x7a;
	this->i[19] = 0xff;
	printf("%s\n", link_ntop(ARPHRD_INFINIBAND, this->i));
}

BEGIN
{
	printf("%s\n", link_ntop(-1, alloca(8)));
}

BEGIN
{
	printf("%s\n", link_ntop(ARPHRD_ETHER, (void *)8));
}

BEGIN
{
	exit(0);
}

ERROR
{
	printf("fault %d\n", arg4);
}
/* SPDX-License-Identifier: MIT */

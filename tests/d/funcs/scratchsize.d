/*
 * The scratchsize option bounds what alloca() and copyin() take in a
 * clause (8-byte aligned, the strings subroutines make not counted):
 * 8 + 9 bytes fit in 24, one more byte does not.
 * @options: -q -x scratchsize=24
 * @status: 0
 */
BEGIN
{
	a = (char *)alloca(8);
	b = (char *)alloca(9);
	printf("%s\n", strjoin("fits ", "in 24"));
}

BEGIN
{
	a = (char *)alloca(8);
	b = (char *)alloca(9);
	c = (char *)alloca(1);
	printf("not reached\n");
}

BEGIN
{
	exit(0);
}
/* SPDX-License-Identifier: MIT */

/*
 * scratchsize=0 leaves alloca() nothing but empty blocks.
 * @options: -q -x scratchsize=0
 * @status: 0
 */
BEGIN
{
	p = alloca(0);
	printf("alloca(0) works\n");
}

BEGIN
{
	sz = 1;
	q = alloca(sz);
	printf("not reached\n");
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

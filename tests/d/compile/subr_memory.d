/*
 * Memory subroutines.
 * @options: -e
 */
BEGIN
{
	a = copyin(arg0, 8);
	b = copyinstr(arg0);
	c = copyinstr(arg0, 10);
	copyinto(arg0, 8, alloca(8));
	d = alloca(16);
	bcopy(d, alloca(16), 16);
	e = memref(d, 16);
}
/* SPDX-License-Identifier: MIT */

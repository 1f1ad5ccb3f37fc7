/*
 * Globals of several types.
 * @options: -e
 */
BEGIN
{
	i = 1;
	s = "str";
	p = curthread;
	t = timestamp;
	c = 'c';
}
/* SPDX-License-Identifier: MIT */

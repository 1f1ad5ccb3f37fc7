/*
 * uregs[] takes a constant index; a variable, even one holding a
 * register's name, is an int.
 * @options: -e
 */
BEGIN
{
	i = R_SP;
	trace(uregs[i]);
}
/* SPDX-License-Identifier: MIT */

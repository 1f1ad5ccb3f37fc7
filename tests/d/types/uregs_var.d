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
/*
 * The R_* names are a processor's: a build without an OS backend has
 * none.
 * @requires: os:linux
 * SPDX-License-Identifier: MIT
 */

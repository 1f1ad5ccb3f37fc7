/*
 * With strsize below execname's 16 bytes, execname and string constants
 * are cut to strsize - 1 characters, as keys and as records.
 * @options: -q -x strsize=5
 */
BEGIN
{
	@[execname] = count();
	@["abcdefgh"] = count();
	@["abcdxyz"] = count();
	trace(execname);
	printf("|\n");
	exit(0);
}
/* SPDX-License-Identifier: MIT */

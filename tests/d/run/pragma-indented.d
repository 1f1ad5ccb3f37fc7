/*
 * A control line may be indented, also right after blank lines (the
 * lexer must not eat the blanks that begin its line).
 */


	#pragma D option quiet
  	 #pragma D option aggsortkey

BEGIN
{
	@[2] = count();
	@[1] = count();
	exit(0);
}
/* SPDX-License-Identifier: MIT */

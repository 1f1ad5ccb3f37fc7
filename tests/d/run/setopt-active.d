/*
 * setopt() while tracing: the options tracing was set up with (buffer
 * sizes, dynamic variable space, speculations) cannot change any more,
 * and dtrace says so; the others still can.
 * @options: -q
 * @status: 0
 */
BEGIN
{
	setopt("bufsize", "1m");
	setopt("dynvarsize", "2m");
	setopt("nspec", "4");
	setopt("aggsortrev");
	printf("done\n");
	exit(0);
}
/* SPDX-License-Identifier: MIT */

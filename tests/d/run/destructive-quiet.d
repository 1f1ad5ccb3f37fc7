/*
 * A program that sets quiet with a pragma is as quiet as -q: dtrace(1)
 * does not say it is allowing destructive actions.
 * @options: -w
 * @status: 0
 */
#pragma D option quiet

BEGIN
{
	printf("done\n");
	exit(0);
}
/* SPDX-License-Identifier: MIT */

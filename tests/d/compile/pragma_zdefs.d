/*
 * #pragma D option zdefs takes effect in the rest of the program: a
 * description that matches no probe is then allowed.
 * @options: -q
 */
#pragma D option zdefs

BEGIN, nosuchprovider:::nosuchprobe
{
	printf("ok\n");
	exit(0);
}
/* SPDX-License-Identifier: MIT */

/*
 * Only one exit() wins: a clause that calls exit() after another firing
 * already has (here, on another CPU at the same tick) is dropped whole,
 * its printf() too, as DTrace drops it.
 * @options: -q
 */
profile-4999hz
{
	printf("fired\n");
	exit(0);
}

END
{
	printf("end\n");
}
/* SPDX-License-Identifier: MIT */

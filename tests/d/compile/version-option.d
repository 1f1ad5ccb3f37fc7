/*
 * -x version=1.0 on the command line hides strstr (D 1.1) from the
 * program, while the D library files, compiled with every built-in
 * (net.d uses ntohl, D 1.3), still load.
 * @options: -q -x version=1.0
 */
int strstr;

BEGIN
{
	strstr = 7;
	printf("%d\n", strstr);
	exit(0);
}
/* SPDX-License-Identifier: MIT */

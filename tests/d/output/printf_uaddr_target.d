/*
 * With -c, printf() %A takes a plain integer as an address in that
 * process.
 * @options: -q -c /bin/true
 */
BEGIN
{
	printf("%A|\n", 0x400000);
}
/* SPDX-License-Identifier: MIT */

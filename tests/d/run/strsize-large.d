/*
 * A strsize whose scratch space passes the kernel's 32k limit for a
 * per-CPU map value still runs on the BPF engine (scratch is then an
 * array with an entry per CPU), with the same strings as the
 * interpreter's, a long one included.
 * @options: -q -x strsize=2000
 * @status: 0
 */
BEGIN
{
	s = "0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnop";
	s = strjoin(s, s);
	s = strjoin(s, s);
	s = strjoin(s, s);
	s = strjoin(s, s);
	printf("%d %s %s\n", strlen(s), substr(s, 900, 20), toupper(
	    substr(s, 970)));
	exit(0);
}
/* SPDX-License-Identifier: MIT */

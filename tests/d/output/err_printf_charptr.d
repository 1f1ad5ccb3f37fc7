/*
 * Printf() %s of a char pointer: DTrace wants stringof() (or copyinstr())
 * to say whose memory holds the string.
 * @options: -e
 */
BEGIN { printf("%s\n", (char *)curthread); }
/* SPDX-License-Identifier: MIT */

/*
 * Records that do not fit in the principal buffer are dropped and
 * counted, and dtrace(1) reports them per CPU once it has drained that
 * CPU's buffer.  Each printf() record holds a 1304-byte string, so 3 of
 * them fit in 4k on either engine and 2 are dropped; the small exit()
 * record still fits after them.
 * @options: -q -b 4k -x strsize=1304
 * @cpu: 0
 * @status: 0
 */
BEGIN { printf("%s\n", "one"); }
BEGIN { printf("%s\n", "two"); }
BEGIN { printf("%s\n", "three"); }
BEGIN { printf("%s\n", "four"); }
BEGIN { printf("%s\n", "five"); }
BEGIN { exit(0); }
/* SPDX-License-Identifier: MIT */

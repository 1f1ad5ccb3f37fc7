/*
 * %Y and %T take a 64-bit integer: an int is refused when compiled, not
 * when its 4-byte record reaches the consumer.
 * @options: -e
 */
BEGIN { printf("%Y\n", 0); }
/* SPDX-License-Identifier: MIT */

/*
 * A printf() width or precision past an int (C's printf takes one) is
 * refused when the format is checked, not computed with an overflow.
 * @options: -e
 */
BEGIN { printf("%ld %7777777777777777777777777777lld\n", 1L, 2LL); }
/* SPDX-License-Identifier: MIT */

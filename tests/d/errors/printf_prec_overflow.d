/*
 * A printf() precision past an int is refused as the width is.
 * @options: -e
 */
BEGIN { printf("%.2147483648d\n", 1); }
/* SPDX-License-Identifier: MIT */

/* SPDX-License-Identifier: MIT */
/*
 * A printf() precision of exactly INT_MAX is read without overflow.
 */
BEGIN { printf("%.2147483647d\n", 1); }

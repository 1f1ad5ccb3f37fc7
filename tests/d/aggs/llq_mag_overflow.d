/*
 * llquantize(): 10^30 does not fit in 64 bits.
 * @options: -e -x errtags
 */
BEGIN { @ = llquantize(1, 10, 0, 30, 20); }
/* SPDX-License-Identifier: MIT */

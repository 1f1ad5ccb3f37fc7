/*
 * llquantize(): the high magnitude must be above the low one.
 * @options: -e -x errtags
 */
BEGIN { @ = llquantize(1, 10, 3, 3, 20); }
/* SPDX-License-Identifier: MIT */

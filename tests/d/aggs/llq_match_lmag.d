/*
 * llquantize(): every use of an aggregation has the same low magnitude.
 * @options: -e -x errtags
 */
BEGIN { @ = llquantize(0, 10, 0, 6, 20); }
BEGIN { @ = llquantize(0, 10, 1, 6, 20); }
/* SPDX-License-Identifier: MIT */

/*
 * llquantize(): every use of an aggregation has the same steps.
 * @options: -e -x errtags
 */
BEGIN { @ = llquantize(0, 10, 0, 6, 20); }
BEGIN { @ = llquantize(0, 10, 0, 6, 50); }
/* SPDX-License-Identifier: MIT */

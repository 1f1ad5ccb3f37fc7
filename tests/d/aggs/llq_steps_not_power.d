/*
 * llquantize(): steps per magnitude must divide a power of the factor
 * (30 divides neither 10 nor 100).
 * @options: -e -x errtags
 */
BEGIN { @ = llquantize(1, 10, 0, 6, 30); }
/* SPDX-License-Identifier: MIT */

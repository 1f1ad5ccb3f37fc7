/*
 * llquantize(): steps per magnitude must be a multiple of the factor.
 * @options: -e -x errtags
 */
BEGIN { @ = llquantize(1, 10, 0, 6, 25); }
/* SPDX-License-Identifier: MIT */

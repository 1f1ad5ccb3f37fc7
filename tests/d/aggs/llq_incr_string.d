/*
 * llquantize(): the increment must be a scalar.
 * @options: -e -x errtags
 */
BEGIN { @ = llquantize(1, 10, 0, 2, 20, ""); }
/* SPDX-License-Identifier: MIT */

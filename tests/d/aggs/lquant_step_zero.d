/*
 * lquantize(): a step of zero is not a positive constant.
 * @options: -e -x errtags
 */
BEGIN { @ = lquantize(1, 0, 1100, 0); }
/* SPDX-License-Identifier: MIT */

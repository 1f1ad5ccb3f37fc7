/*
 * Lquantize() with a base that is not a constant.
 * @options: -e
 */
BEGIN { @a = lquantize(1, arg0, 10); }
/* SPDX-License-Identifier: MIT */

/*
 * Lquantize() with two arguments.
 * @options: -e
 */
BEGIN { @ = lquantize(1, 2); }
/* SPDX-License-Identifier: MIT */

/*
 * Lquantize() with a negative base.
 * @options: -e
 */
BEGIN { @a = lquantize(arg0, -100, 100, 5); }
/* SPDX-License-Identifier: MIT */

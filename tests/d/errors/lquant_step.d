/*
 * Lquantize() with a step too large for one bucket.
 * @options: -e
 */
BEGIN { @a = lquantize(1, 0, 10, 100); }
/* SPDX-License-Identifier: MIT */

/*
 * Lquantize() with base above limit.
 * @options: -e
 */
BEGIN { @a = lquantize(1, 10, 0); }
/* SPDX-License-Identifier: MIT */

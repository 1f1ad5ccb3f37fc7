/*
 * Sum() of a string.
 * @options: -e
 */
BEGIN { @a = sum("x"); }
/* SPDX-License-Identifier: MIT */

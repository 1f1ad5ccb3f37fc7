/*
 * Trunc() of a string.
 * @options: -e
 */
BEGIN { trunc("x"); }
/* SPDX-License-Identifier: MIT */

/*
 * Clear() of an integer.
 * @options: -e
 */
BEGIN { clear(1); }
/* SPDX-License-Identifier: MIT */

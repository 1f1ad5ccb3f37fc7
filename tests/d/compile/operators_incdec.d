/*
 * ++ and -- before and after.
 * @options: -e
 */
BEGIN { x = 1; x++; x--; ++x; --x; y = x++ + ++x; }
/* SPDX-License-Identifier: MIT */

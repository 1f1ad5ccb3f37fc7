/*
 * Taking the address of a D variable.
 * @options: -e
 */
BEGIN { x = 1; y = &x; }
/* SPDX-License-Identifier: MIT */

/* SPDX-License-Identifier: MIT */
/*
 * Taking the aess of a D variable.
 * @options: -e
 */
BEGIN { x =x = 0; y = &x; }

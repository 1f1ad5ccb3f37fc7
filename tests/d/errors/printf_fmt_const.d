/*
 * Printf() with a format that is not a constant.
 * @options: -e
 */
BEGIN { x = "%d"; printf(x, 1); }
/* SPDX-License-Identifier: MIT */

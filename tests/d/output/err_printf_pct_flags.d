/*
 * Printf() with flags on %%, which takes none.
 * @options: -e
 */
BEGIN { printf("100%5%\n"); }
/* SPDX-License-Identifier: MIT */

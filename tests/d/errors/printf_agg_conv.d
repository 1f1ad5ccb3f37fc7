/*
 * Printf() with %@.
 * @options: -e
 */
BEGIN { printf("%@d\n", 1); }
/* SPDX-License-Identifier: MIT */

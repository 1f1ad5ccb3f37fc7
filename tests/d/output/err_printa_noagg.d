/*
 * Printa() with a format and nothing to print.
 * @options: -e
 */
BEGIN { printa("%@d\n"); }
/* SPDX-License-Identifier: MIT */

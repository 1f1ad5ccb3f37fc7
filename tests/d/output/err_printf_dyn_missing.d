/*
 * Printf() with a dynamic precision and no argument for it: the message
 * names the conversion without its flags, and what is missing.
 * @options: -e
 */
BEGIN { printf("%-*.*d"); }
/* SPDX-License-Identifier: MIT */

/*
 * Enums and their enumerators.
 * @options: -e
 */
enum color { RED, GREEN = 5, BLUE };
enum color c;
BEGIN { c = BLUE; trace(RED + GREEN); x = c == BLUE; }
/* SPDX-License-Identifier: MIT */

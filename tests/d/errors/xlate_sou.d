/*
 * A translator to an integer.
 * @options: -e
 */
translator int < int x > { };
/* SPDX-License-Identifier: MIT */

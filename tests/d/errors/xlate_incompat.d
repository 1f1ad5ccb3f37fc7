/*
 * A translator member of the wrong type.
 * @options: -e
 */
struct out { int a; };
translator struct out < int x > { a = "s"; };
/* SPDX-License-Identifier: MIT */

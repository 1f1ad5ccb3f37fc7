/*
 * A translator member the output type lacks.
 * @options: -e
 */
struct out { int a; };
translator struct out < int x > { b = x; };
/* SPDX-License-Identifier: MIT */

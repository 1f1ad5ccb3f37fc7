/*
 * Xlate with no translator.
 * @options: -e
 */
struct out { int a; };
BEGIN { x = xlate<struct out>(1).a; }
/* SPDX-License-Identifier: MIT */

/*
 * An action as the argument of another: the outer action reports the
 * void argument first.
 * @options: -e
 */
BEGIN { printf("%d\n", trace(1)); }
/* SPDX-License-Identifier: MIT */

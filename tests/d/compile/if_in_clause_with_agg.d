/*
 * An aggregation inside an if.
 * @options: -e
 */
BEGIN { if (arg0) @a = count(); else @b = sum(1); }
/* SPDX-License-Identifier: MIT */

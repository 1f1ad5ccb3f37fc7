/*
 * Clear() of two aggregations.
 * @options: -e
 */
BEGIN { @a = count(); @b = count(); clear(@a, @b); }
/* SPDX-License-Identifier: MIT */

/*
 * An aggregation updated in two clauses.
 * @options: -e
 */
BEGIN { @a[1, "x"] = sum(1); }
END { @a[2, "y"] = sum(2); }
/* SPDX-License-Identifier: MIT */

/*
 * Printing an aggregation that does not exist.
 * @options: -e
 */
BEGIN { printa(@nosuch); }
/* SPDX-License-Identifier: MIT */

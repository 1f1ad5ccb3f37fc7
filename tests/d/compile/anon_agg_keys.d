/*
 * The anonymous aggregation with keys.
 * @options: -e
 */
BEGIN { @[execname, pid] = sum(1); printa(@); }
/* SPDX-License-Identifier: MIT */

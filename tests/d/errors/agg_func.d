/*
 * An aggregation assigned an ordinary value.
 * @options: -e
 */
BEGIN { @a = 1; }
/* SPDX-License-Identifier: MIT */

/*
 * An aggregation indexed twice.
 * @options: -e
 */
BEGIN { @a[1][2] = count(); }
/* SPDX-License-Identifier: MIT */

/*
 * Printa() format with more conversions than the aggregation has keys.
 * @options: -e
 */
BEGIN { @a[1] = count(); printa("%d %d %@d\n", @a); }
/* SPDX-License-Identifier: MIT */

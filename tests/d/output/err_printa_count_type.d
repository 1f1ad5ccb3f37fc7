/*
 * Printa() %@ of count(), an unsigned value: %@hd does not fit it.
 * @options: -e
 */
BEGIN { @a = count(); printa("%@hd\n", @a); }
/* SPDX-License-Identifier: MIT */

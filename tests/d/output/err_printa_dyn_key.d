/*
 * Printa() takes a dynamic width from a key too, which must be an integer.
 * @options: -e
 */
BEGIN { @a["x", "y"] = count(); printa("%*s %@d\n", @a); }
/* SPDX-License-Identifier: MIT */

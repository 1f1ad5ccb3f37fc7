/*
 * Printa() format checked against the types of the keys.
 * @options: -e
 */
BEGIN { @a["x", 1] = count(); printa("%d %d %@d\n", @a); }
/* SPDX-License-Identifier: MIT */

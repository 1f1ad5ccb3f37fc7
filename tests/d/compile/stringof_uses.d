/*
 * Stringof in keys and comparisons.
 * @options: -e
 */
BEGIN { @[stringof(arg0)] = count(); x = stringof(1) == "1"; }
/* SPDX-License-Identifier: MIT */

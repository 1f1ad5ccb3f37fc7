/*
 * Strings assigned and compared.
 * @options: -e
 */
BEGIN { s = "a"; t = s; s = execname; u = s == t ? "same" : "diff"; }
/* SPDX-License-Identifier: MIT */

/*
 * ++ creates a variable.
 * @options: -e
 */
BEGIN { n++; trace(n); }
/* SPDX-License-Identifier: MIT */

/*
 * Setopt() of a variable.
 * @options: -e
 */
BEGIN { x = "quiet"; setopt(x); }
/* SPDX-License-Identifier: MIT */

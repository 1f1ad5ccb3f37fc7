/*
 * Adding two strings.
 * @options: -e
 */
BEGIN { x = "a" + "b"; }
/* SPDX-License-Identifier: MIT */

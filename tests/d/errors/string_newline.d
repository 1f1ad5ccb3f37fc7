/*
 * A string literal running into a newline.
 * @options: -e
 */
BEGIN { x = "abc
"; }
/* SPDX-License-Identifier: MIT */

/*
 * ?: with a string condition.
 * @options: -e
 */
BEGIN { x = "a" ? 1 : 2; }
/* SPDX-License-Identifier: MIT */

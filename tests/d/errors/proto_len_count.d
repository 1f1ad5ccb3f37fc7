/*
 * Count() with an argument.
 * @options: -e
 */
BEGIN { @ = count(1); }
/* SPDX-License-Identifier: MIT */

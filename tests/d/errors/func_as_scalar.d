/*
 * Using a function as a value.
 * @options: -e
 */
BEGIN { x = strlen; }
/* SPDX-License-Identifier: MIT */

/*
 * Sum() without an argument.
 * @options: -e
 */
BEGIN { @ = sum(); }
/* SPDX-License-Identifier: MIT */

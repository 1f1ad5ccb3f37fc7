/*
 * An unknown D pragma.
 * @options: -e
 */
#pragma D frobnicate
BEGIN { }
/* SPDX-License-Identifier: MIT */

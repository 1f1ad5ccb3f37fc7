/*
 * Printf() with a size prefix DTrace does not have (z) is an undefined
 * conversion.
 * @options: -e
 */
BEGIN { printf("%zu\n", 1); }
/* SPDX-License-Identifier: MIT */

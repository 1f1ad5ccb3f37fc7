/*
 * Print() and printm().
 * @options: -e
 */
BEGIN { print(1); print("s"); printm(8, (uintptr_t *)arg0); }
/* SPDX-License-Identifier: MIT */

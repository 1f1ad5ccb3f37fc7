/*
 * Arrays of structs and pointers.
 * @options: -e
 */
struct e { int v; };
struct e tab[8];
struct e *ptrs[4];
BEGIN { trace(tab[2].v); trace(ptrs[1]->v); }
/* SPDX-License-Identifier: MIT */

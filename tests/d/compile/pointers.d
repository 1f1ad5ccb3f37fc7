/*
 * Pointers, address-of and dereference.
 * @options: -e
 */
struct s { int a; };
BEGIN { p = (struct s *)arg0; q = &p->a; trace(*q); r = (int **)arg1; trace(**r); d = q - q; }
/* SPDX-License-Identifier: MIT */

/*
 * A member of a struct never defined.
 * @options: -e
 */
struct undefined;
BEGIN { y = ((struct undefined *)0)->a; }
/* SPDX-License-Identifier: MIT */

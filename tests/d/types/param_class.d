/*
 * A parameter takes no storage class but register.
 * @options: -e
 */
int f(register int);
int g(static int);
/* SPDX-License-Identifier: MIT */

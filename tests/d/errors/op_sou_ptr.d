/*
 * Operator -> on a pointer to int.
 * @options: -e
 */
BEGIN { y = ((int *)0)->a; }
/* SPDX-License-Identifier: MIT */

/*
 * Ustack() with no string space (zero) compiles.
 * @options: -e
 */
BEGIN { ustack(5, 0); jstack(3, 0); }
/* SPDX-License-Identifier: MIT */

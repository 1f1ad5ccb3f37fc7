/*
 * Sizeof of void.
 * @options: -e
 */
BEGIN { x = sizeof (void); }
/* SPDX-License-Identifier: MIT */

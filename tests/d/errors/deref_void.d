/*
 * Dereferencing a void pointer.
 * @options: -e
 */
BEGIN { y = *(void *)0; }
/* SPDX-License-Identifier: MIT */

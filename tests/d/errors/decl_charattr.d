/*
 * Long char.
 * @options: -e
 */
long char x;
/* SPDX-License-Identifier: MIT */

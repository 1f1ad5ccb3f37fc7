/*
 * Self used as a value.
 * @options: -e
 */
BEGIN { x = self; }
/* SPDX-License-Identifier: MIT */

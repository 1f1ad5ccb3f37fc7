/*
 * Incrementing a constant.
 * @options: -e
 */
BEGIN { x = 1++; }
/* SPDX-License-Identifier: MIT */

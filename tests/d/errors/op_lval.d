/*
 * Assigning to a constant.
 * @options: -e
 */
BEGIN { 1 = 2; }
/* SPDX-License-Identifier: MIT */

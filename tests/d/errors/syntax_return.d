/*
 * Return is reserved.
 * @options: -e
 */
BEGIN { return 1; }
/* SPDX-License-Identifier: MIT */

/*
 * Printf() without a format.
 * @options: -e
 */
BEGIN { printf(); }
/* SPDX-License-Identifier: MIT */

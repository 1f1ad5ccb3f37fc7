/*
 * Args used without an index.
 * @options: -e
 */
BEGIN { x = args; }
/* SPDX-License-Identifier: MIT */

/*
 * Exit() with two arguments.
 * @options: -e
 */
BEGIN { exit(1, 2); }
/* SPDX-License-Identifier: MIT */

/*
 * Exit() with a string.
 * @options: -e
 */
BEGIN { exit("x"); }
/* SPDX-License-Identifier: MIT */

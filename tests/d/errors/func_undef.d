/*
 * Calling a function that does not exist.
 * @options: -e
 */
BEGIN { nosuch(1); }
/* SPDX-License-Identifier: MIT */

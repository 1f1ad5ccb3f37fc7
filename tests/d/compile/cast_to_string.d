/*
 * A cast from an integer to string.
 * @options: -e
 */
BEGIN { s = (string)arg0; }
/* SPDX-License-Identifier: MIT */

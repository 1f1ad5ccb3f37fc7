/*
 * A clause-local used as an associative array.
 * @options: -e
 */
BEGIN { this->a[1] = 1; }
/* SPDX-License-Identifier: MIT */

/*
 * Uregs[] with two indices.
 * @options: -e
 */
BEGIN { x = uregs[1, 2]; }
/* SPDX-License-Identifier: MIT */

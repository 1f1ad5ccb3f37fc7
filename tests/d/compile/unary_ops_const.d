/*
 * Unary operators on constants.
 * @options: -e
 */
BEGIN { a = -1; b = ~0; c = !0; d = +5; e = -(-(1)); }
/* SPDX-License-Identifier: MIT */

/*
 * A character that is no D token.
 * @options: -e
 */
BEGIN { x = 1 # 2; }
/* SPDX-License-Identifier: MIT */

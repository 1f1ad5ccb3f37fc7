/*
 * A character constant of more than eight bytes.
 * @options: -e
 */
BEGIN { x = 'abcdefghi'; }
/* SPDX-License-Identifier: MIT */

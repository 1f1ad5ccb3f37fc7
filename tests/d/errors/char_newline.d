/*
 * A character constant running into a newline.
 * @options: -e
 */
BEGIN { x = 'a
'; }
/* SPDX-License-Identifier: MIT */

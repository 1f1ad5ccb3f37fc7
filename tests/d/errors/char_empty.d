/*
 * An empty character constant.
 * @options: -e
 */
BEGIN { x = ''; }
/* SPDX-License-Identifier: MIT */

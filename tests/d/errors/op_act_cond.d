/*
 * An action inside ?:.
 * @options: -e
 */
BEGIN { x = 1 ? trace(1) : 2; }
/* SPDX-License-Identifier: MIT */

/*
 * A comment that never ends.
 * @options: -e
 */
BEGIN { }
/* no end
/* SPDX-License-Identifier: MIT */

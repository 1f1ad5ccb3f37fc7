/*
 * A thread-local associative array.
 * @options: -e
 */
BEGIN { self->a[1, "x"] = 3; trace(self->a[1, "x"]); }
/* SPDX-License-Identifier: MIT */

/*
 * Count() with and without keys.
 * @options: -e
 */
BEGIN { @ = count(); @c[probefunc] = count(); @d[pid, execname] = count(); }
/* SPDX-License-Identifier: MIT */

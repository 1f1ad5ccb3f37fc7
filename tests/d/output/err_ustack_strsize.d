/*
 * Ustack() string space must be a constant of at least zero.
 * @options: -e
 */
BEGIN { ustack(5, -1); }
/* SPDX-License-Identifier: MIT */

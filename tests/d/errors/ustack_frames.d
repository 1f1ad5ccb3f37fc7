/*
 * Ustack() with zero frames.
 * @options: -e
 */
BEGIN { ustack(0); }
/* SPDX-License-Identifier: MIT */

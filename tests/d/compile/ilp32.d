/*
 * The 32-bit data model.
 * @options: -e -32
 */
BEGIN { trace(sizeof (long)); trace(sizeof (void *)); }
/* SPDX-License-Identifier: MIT */

/*
 * Normalize() without the factor.
 * @options: -e
 */
BEGIN { @a = count(); normalize(@a); }
/* SPDX-License-Identifier: MIT */
